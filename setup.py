"""Build hook: the table's translations (companion/locale/*/LC_MESSAGES/companion.po) are
compiled to .mo files inside the built package, so an installed wheel reads them with the
standard library's gettext and needs no Babel at run time. Everything else is in pyproject.toml."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the .po files from the checkout (companion.i18n)
        spec = importlib.util.spec_from_file_location("i18n_tool", HERE / "tools" / "i18n.py")
        tool = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tool)
        tool.compile_all(Path(self.build_lib) / "companion" / "locale")


setup(cmdclass={"build_py": BuildWithCatalogs})
