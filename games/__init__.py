"""The bundled games: each subpackage registers one ``ecsgoo.game.Game`` subclass."""
