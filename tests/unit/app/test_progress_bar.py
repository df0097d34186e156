"""ecsgoo.progress_bar: a tqdm bar on a terminal, a few whole lines anywhere else."""

import io

from ecsgoo.progress_bar import STEPS, Lines, bar, is_progress, is_terminal


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_pipe_gets_one_whole_line_a_quarter_whatever_the_updates():
    out = io.StringIO()
    with bar(1000, "goo eval", "episode", out) as counter:
        assert isinstance(counter, Lines)
        for _ in range(1000):
            counter.update()
    lines = out.getvalue().splitlines()
    assert len(lines) == STEPS and "\r" not in out.getvalue()
    assert [line.split()[2] for line in lines] == ["250/1000", "500/1000", "750/1000", "1000/1000"]
    assert all(line.startswith("goo eval: ") and "episode/s" in line for line in lines)


def test_parts_passed_before_the_delay_say_nothing():
    out = io.StringIO()
    counter = bar(10, "toy", "frame", out, delay=1e9)
    counter.update(10)
    counter.close()
    assert out.getvalue() == ""


def test_a_terminal_gets_tqdm_redrawn_in_place():
    out = Terminal()
    counter = bar(3, "toy", "frame", out)
    counter.update(3)
    counter.close()
    text = out.getvalue()
    assert "\r" in text and "3/3" in text and text.count("\n") <= 1


def test_closed_and_odd_streams_are_not_terminals():
    closed = io.StringIO()
    closed.close()
    assert not is_terminal(closed) and not is_terminal(object()) and is_terminal(Terminal())


def test_every_line_a_pipe_gets_is_known_as_progress_and_an_error_is_not():
    out = io.StringIO()
    counter = bar(7, "bad_key level 1", "frame", out)
    for _ in range(7):
        counter.update()
    lines = out.getvalue().splitlines()
    assert len(lines) == 4 and all(is_progress(line) for line in lines)
    assert is_progress("bad_key level 1: 2/5 frames, 2.4 s (1 frame/s)")
    assert not is_progress("error: KeyError: 'missing'")
    assert not is_progress("bad_key level 1: 2/5 frames, then KeyError: 'missing'")
