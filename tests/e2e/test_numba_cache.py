"""numba's cache never stops the program: nowhere writable, kernels cache in a temp folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba

from ecsgoo import numba_cache

ROOT = Path(__file__).resolve().parents[2]

#: Every folder but the fallback refuses files, as on a read-only install and home.
READ_ONLY = """
import tempfile
real = tempfile.TemporaryFile
def refuse(*args, dir=None, **kw):
    if dir is None or "ecsgoo-numba-" not in dir:
        raise PermissionError(13, "Read-only file system")
    return real(*args, dir=dir, **kw)
tempfile.TemporaryFile = refuse
import ecsgoo, numba
print(numba.config.CACHE_DIR)
"""


def test_import_works_when_no_cache_folder_is_writable():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARCADE_HEADLESS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    proc = subprocess.run([sys.executable, "-c", READ_ONLY], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "ecsgoo-numba-" in proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1 and "no writable numba cache" in proc.stderr


def test_a_writable_place_or_the_users_choice_is_left_alone(monkeypatch, tmp_path):
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    assert numba_cache.ensure_writable_cache(str(tmp_path)) is None
    assert numba.config.CACHE_DIR == ""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    assert numba_cache.ensure_writable_cache("/", can_write=lambda path: False) is None
    assert numba.config.CACHE_DIR == str(tmp_path)


KERNELS = """
from numba import njit

@njit(cache=True)
def twice(x):
    return 2 * x

@njit(cache=True)
def thrice(x):
    return 3 * x
"""

RUN = "import ecsgoo, kernels_x; print(kernels_x.twice(4), kernels_x.thrice(4))"


def _runner(tmp_path: Path):
    """A function that runs RUN in a fresh process, caching kernels_x beside it."""
    (tmp_path / "kernels_x.py").write_text(KERNELS)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}", "ARCADE_HEADLESS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)

    def run() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=300)

    return run


def test_each_cache_folder_is_checked_once_a_process(tmp_path, monkeypatch):
    """numba checks a kernel's cache folder takes a file as the kernel is defined; ecsgoo
    makes that once per folder (numba_cache): two kernels of a new module, one check."""
    import tempfile

    import ecsgoo.kernels  # noqa: F401  (the check made once from here on)

    made: list[str] = []
    real = tempfile.TemporaryFile
    monkeypatch.setattr(tempfile, "TemporaryFile",
                        lambda *a, **k: made.append(k.get("dir")) or real(*a, **k))
    (tmp_path / "checked_x.py").write_text(
        "from numba import njit\n@njit(cache=True)\ndef a(x):\n    return x\n"
        "@njit(cache=True)\ndef b(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import checked_x

    assert len(made) == 1 and checked_x.a(1) == 1 and checked_x.b(1) == 2


def test_a_corrupt_cache_entry_is_dropped_and_compiled_again(tmp_path):
    run = _runner(tmp_path)
    assert run().stdout.split() == ["8", "12"]
    cache = tmp_path / "__pycache__"
    index = sorted(cache.glob("kernels_x.twice-*.nbi"))[0]
    index.write_bytes(index.read_bytes()[:20])  # truncated
    for data in cache.glob("kernels_x.thrice-*.nbc"):
        data.write_bytes(b"garbage" * 10)
    marker = cache / f"{numba_cache.WARM_MARKER}0.0-x"  # "every kernel was warm" (warmup)
    marker.write_text("")
    proc = run()
    assert proc.returncode == 0 and proc.stdout.split() == ["8", "12"], proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and all("dropped a corrupt numba cache entry" in x for x in lines)
    assert not marker.exists(), "a dropped entry takes the warm marker with it"
    assert run().stderr == "", "the entries were written again"


def test_a_bit_flipped_cache_entry_is_caught_by_its_checksum(tmp_path):
    run = _runner(tmp_path)
    assert run().stdout.split() == ["8", "12"]
    cache = tmp_path / "__pycache__"
    data = sorted(cache.glob("kernels_x.twice-*.nbc"))[0]
    assert data.read_bytes().startswith(numba_cache.MAGIC)
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 0x10  # one bit, deep inside the pickled machine code
    data.write_bytes(bytes(raw))
    proc = run()
    assert proc.returncode == 0 and proc.stdout.split() == ["8", "12"], proc.stderr
    assert "dropped a corrupt numba cache entry" in proc.stderr
    assert "(ValueError)" in proc.stderr, "the checksum caught it, not the unpickler"
    assert run().stderr == "", "written again, with a new checksum"


def test_a_kernels_entry_goes_stale_when_another_kernel_file_changes(tmp_path):
    """A kernel carries its callees' code: its entry must go stale with theirs."""
    from ecsgoo import numba_cache

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("from numba import njit\n@njit\ndef f(x):\n    return x\n")
    (pkg / "b.py").write_text("from numba import njit\n@njit\ndef g(x):\n    return x\n")
    (pkg / "notes.py").write_text("X = 1\n")
    before = numba_cache.package_digest(str(pkg))
    numba_cache.package_digest.cache_clear()
    (pkg / "notes.py").write_text("X = 2\n")  # no kernels: no say
    assert numba_cache.package_digest(str(pkg)) == before
    numba_cache.package_digest.cache_clear()
    (pkg / "b.py").write_text("from numba import njit\n@njit\ndef g(x):\n    return x + 1\n")
    assert numba_cache.package_digest(str(pkg)) != before
    numba_cache.package_digest.cache_clear()
    before = numba_cache.package_digest(str(pkg))
    (pkg / "link_only.py").write_text("WRAPPERS = 2\n")  # no kernels, but makes entries
    numba_cache.package_digest.cache_clear()
    assert numba_cache.package_digest(str(pkg)) != before
    # and an ecsgoo kernel's stamp carries the package's digest
    from numba.core import caching

    from ecsgoo.kernels import merge

    locator = caching.InTreeCacheLocator.from_function(merge.merge_pairs.py_func,
                                                       merge.__file__)
    stamp = locator.get_source_stamp()
    assert isinstance(stamp, tuple) and stamp[1] == numba_cache.package_digest(
        os.path.dirname(os.path.dirname(merge.__file__)))


LOADS = """
import sys
import numpy as np
from numba import njit
import ecsgoo

@njit(cache=True)
def filled(n):
    out = np.empty(n)  # numba's runtime allocates: loaded kernels need it started
    out[:] = 1.5
    return out

print(filled(3).sum(), "numba.np.linalg" in sys.modules, "numba.np.arrayobj" in sys.modules)
"""


def test_a_cached_kernel_loads_without_numbas_compile_registries(tmp_path):
    """Loading from the cache skips numba's registry imports (0.15 s of a warm start) and
    the modules of numba's own functions it carries (``np.empty``'s environment names
    ``numba.np.arrayobj``: ecsgoo.lazy_load): the kernel still runs, numba's runtime
    allocates for it; compiling imports them."""
    (tmp_path / "loads_x.py").write_text(LOADS)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}", "ARCADE_HEADLESS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)

    def run() -> list[str]:
        proc = subprocess.run([sys.executable, "-c", "import loads_x"], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    assert run() == ["4.5", "True", "True"], "compiled: numba loaded its registries to type it"
    assert run() == ["4.5", "False", "False"], "loaded from the cache: no registries"


LINKS = """
import sys
import numpy as np
from numba import njit
import llvmlite.binding as ll
import ecsgoo.kernels  # the lazy load (ecsgoo.lazy_load) is on from here

parsed = []
own = ll.parse_bitcode
def counted(data):
    parsed.append(len(data))
    return own(data)
import numba.core.codegen
numba.core.codegen.ll.parse_bitcode = counted

@njit(cache=True)
def doubled(a):
    return a * 2.0

x = doubled(np.arange(3.0))
loaded = bool(sum(doubled.stats.cache_hits.values()))
print(x.sum(), loaded, bool(parsed))
if sys.argv[1] == "link":
    @njit  # not cached: compiled now, linking the cached kernel's library
    def caller(n):
        return doubled(np.ones(n)).sum() + 0.5
    print(caller(4), bool(parsed))
"""


def test_a_cached_kernel_loads_without_its_bitcode_until_a_compile_links_it(tmp_path):
    """A warm start reads no kernel's bitcode (ecsgoo.lazy_load); a kernel compiled
    later that calls a loaded one links it, the bitcode parsed then, and runs."""
    (tmp_path / "links_x.py").write_text(LINKS)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}", "ARCADE_HEADLESS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)

    def run(mode: str) -> list[str]:
        proc = subprocess.run([sys.executable, "-c", "import sys; sys.argv[1:] = ["
                               f"{mode!r}]; import links_x"], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    # compiled the first time (what it parsed, if anything, is numba's runtime, read from
    # its kept file as the compile links it: ``lazy_load.keep_the_runtime``)
    assert run("load")[:2] == ["6.0", "False"], "compiled the first time"
    assert run("load") == ["6.0", "True", "False"], "loaded: no bitcode parsed"
    assert run("link") == ["6.0", "True", "False", "8.5", "True"], "parsed as a compile links it"


# numba's runtime library (``lazy_load.keep_the_runtime``): kept in the cache folder by the
# first process, read by the next; a file that changed or is another machine's is not
# used. ``compiled`` says whether this process compiled it (numba's ``create_nrt_module``).
RUNTIME = """
import json, sys
import numpy as np
from numba.core.runtime import nrtdynmod
made = []
own = nrtdynmod.create_nrt_module
nrtdynmod.create_nrt_module = lambda ctx: made.append(1) or own(ctx)
import ecsgoo  # (its kernels' set-up keeps the runtime)
from numba import njit

@njit
def grown(n):
    out = np.zeros(n)  # an array made in the kernel: the runtime's allocation and counts
    for k in range(n):
        out[k] = k * 0.5
    return out

total = float(grown(10).sum())  # (compiled here: the runtime is started first)
print(json.dumps({"compiled": bool(made), "sum": total}))
"""


def _runtime_run(cache: Path) -> dict:
    import json

    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-c", RUNTIME], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_numbas_runtime_is_compiled_once_then_read_unless_its_file_changed(tmp_path):
    first = _runtime_run(tmp_path)
    kept = list(tmp_path.glob("numba-runtime-*.nbo"))
    assert first == {"compiled": True, "sum": 22.5} and len(kept) == 1
    assert _runtime_run(tmp_path) == {"compiled": False, "sum": 22.5}
    data = bytearray(kept[0].read_bytes())
    data[len(data) // 2] ^= 0x10  # a bit flipped: its checksum fails, compiled again
    kept[0].write_bytes(bytes(data))
    assert _runtime_run(tmp_path) == {"compiled": True, "sum": 22.5}
    assert _runtime_run(tmp_path) == {"compiled": False, "sum": 22.5}  # written whole again


def test_a_runtime_kept_for_another_machine_is_not_used(tmp_path):
    from ecsgoo import lazy_load

    _runtime_run(tmp_path)
    kept = next(tmp_path.glob("numba-runtime-*.nbo"))
    ident, payload = numba_cache.unframe(kept.read_bytes(), str(kept))
    other = ident.replace(b"'x86-64", b"'other").replace(b"x86_64", b"elsewhere")
    assert other != ident and lazy_load.runtime_file(other) != str(kept)
    kept.write_bytes(numba_cache.frame(other, payload))  # right checksum, wrong identity
    assert _runtime_run(tmp_path) == {"compiled": True, "sum": 22.5}


# Two processes compiling at once number their functions alike (numba: from 1), and each
# cache entry carries its callees under those numbered names: numba's quicksort made for
# ``np.sort`` in one entry and for ``np.argsort`` in another could share a name, and a
# process loading both ran one for the other (``numba_cache.distinct_names``). ``pad``
# functions compiled first line the argsort process's numbering up with the sort
# process's (with numba 0.68 a pad of 3 did: the argsort gave indices out of bounds).
SORTS = """
import numpy as np
from numba import njit

@njit(cache=True)
def sorted_copy(a):
    return np.sort(a)

@njit(cache=True)
def order(a):
    return np.argsort(a)
"""

SORTS_RUN = """
import json, sys
import numpy as np
import ecsgoo.kernels  # (ecsgoo's numba set-up)
from numba import njit
import sorts_y
x = np.array([5.0, -1.0, 3.0, 2.0, 9.0, 0.5, 7.0, 1.0] * 3)
mode, pad = sys.argv[1], int(sys.argv[2])
for _ in range(pad):
    njit(lambda v: v + 1)(1.0)
out = {}
if mode in ("sort", "both"):
    out["sort"] = sorts_y.sorted_copy(x).tolist() == np.sort(x).tolist()
if mode in ("argsort", "both"):
    i = sorts_y.order(x)
    out["argsort"] = bool(i.min() >= 0 and i.max() < len(x) and (x[i] == np.sort(x)).all())
print(json.dumps(out))
"""


def test_entries_compiled_by_two_processes_never_run_each_others_functions(tmp_path):
    import json
    import shutil

    (tmp_path / "sorts_y.py").write_text(SORTS)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"}

    def run(cache: Path, mode: str, pad: int = 0) -> dict:
        proc = subprocess.run([sys.executable, "-c", SORTS_RUN, mode, str(pad)],
                              capture_output=True, text=True, cwd=tmp_path, timeout=300,
                              env={**env, "NUMBA_CACHE_DIR": str(cache)})
        assert proc.returncode == 0, proc.stderr[-2000:]
        return json.loads(proc.stdout.strip().splitlines()[-1])

    sorted_only = tmp_path / "sorted"
    assert run(sorted_only, "sort") == {"sort": True}
    for pad in (2, 3, 4):
        cache = tmp_path / f"pad{pad}"
        shutil.copytree(sorted_only, cache)
        assert run(cache, "argsort", pad) == {"argsort": True}
        assert run(cache, "both") == {"sort": True, "argsort": True}, pad


def test_each_process_numbers_its_functions_from_its_own_offset():
    from numba.core import bytecode

    code = ("import ecsgoo.kernels; from numba.core import bytecode; "
            "print(next(bytecode.FunctionIdentity._unique_ids))")
    starts = [int(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                 text=True, cwd=ROOT, check=True).stdout) for _ in range(2)]
    here = next(bytecode.FunctionIdentity._unique_ids)
    assert len({s // numba_cache.NAMES_PER_PROCESS for s in (*starts, here)}) == 3
    assert all(s > numba_cache.NAMES_PER_PROCESS for s in starts)
