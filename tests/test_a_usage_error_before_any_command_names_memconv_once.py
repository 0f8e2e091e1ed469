"""A usage error before any command is said by ``memconv:`` once (it was ``memconv memconv: error: …``)."""
import subprocess
import sys


def test_the_line_names_memconv_once():
    done = subprocess.run([sys.executable, "-m", "memconv", "--json"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("memconv: error: No such option '--json'"), done.stderr
