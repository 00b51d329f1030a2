"""tko.logroute in child Pythons started as `tko capture` starts the command
(hook first on PYTHONPATH, the fake torch of tests/python/fakes): which
records leave the terminal, which stay, and that nothing breaks when the
log cannot be written. The expected lines are the ones each script logs."""
import os
import subprocess
import sys
import textwrap

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYDIR = os.path.join(ROOT, "python")
HOOK = os.path.join(PYDIR, "tko", "_hook")
FAKES = os.path.join(os.path.dirname(__file__), "fakes")


def run(tmp_path, script, log=None, routes="torch,triton", torch_logs="+inductor",
        capture_var="TKO_CAPTURE_DIR"):
    cap = tmp_path / "run" / "capture"
    (cap / "kernels").mkdir(parents=True)
    (tmp_path / "run" / "log").mkdir()
    log = str(tmp_path / "run" / "log" / "model.log") if log is None else log
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HOOK, PYDIR, FAKES]),
               TKO_LOG_FILE=log, TKO_LOG_ROUTE=routes)
    env.pop("TKO_CAPTURE_DIR", None)
    env.pop("TORCH_LOGS", None)
    env[capture_var] = str(cap)
    if torch_logs is not None:
        env["TORCH_LOGS"] = torch_logs
    model = tmp_path / "model.py"
    model.write_text(textwrap.dedent(script))
    proc = subprocess.run([sys.executable, str(model)], env=env, capture_output=True,
                          text=True, timeout=60)
    text = open(log).read() if os.path.exists(log) else ""
    return proc, text


def test_a_users_own_handler_on_a_torch_logger_still_gets_everything(tmp_path):
    proc, log = run(tmp_path, """
        import logging, sys
        import torch
        mine = logging.StreamHandler(sys.stdout)
        mine.setFormatter(logging.Formatter("mine: %(message)s"))
        logging.getLogger("torch._inductor").addHandler(mine)
        logging.getLogger("torch._inductor.x").debug("d1")
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "mine: d1\n"
    assert "d1" not in proc.stderr
    assert log.count("d1") == 1


def test_torch_imported_before_the_hook_is_routed_at_install(tmp_path):
    # No TKO_CAPTURE_DIR for the start-up hook: the script installs capture
    # itself after `import torch` (as when torch came in through a .pth file).
    proc, log = run(tmp_path, """
        import logging, os
        import torch
        logging.getLogger("torch._inductor.y").info("before")
        import tko.capture
        tko.capture.install(os.environ["TKO_LATE_DIR"])
        logging.getLogger("torch._inductor.y").info("i1")
    """, capture_var="TKO_LATE_DIR")
    assert proc.returncode == 0, proc.stderr
    assert "before" in proc.stderr and "before" not in log
    assert "i1" not in proc.stderr and log.count("i1") == 1


def test_set_logs_twice_routes_each_record_once(tmp_path):
    proc, log = run(tmp_path, """
        import logging
        import torch
        torch._logging.set_logs(inductor=logging.DEBUG)
        torch._logging.set_logs(inductor=logging.DEBUG)
        logging.getLogger("torch._inductor.z").debug("once")
        logging.getLogger("torch._inductor.z").error("shown")
    """, torch_logs=None)
    assert proc.returncode == 0, proc.stderr
    assert log.count("once") == 1 and "once" not in proc.stderr
    assert proc.stderr.count("shown") == 1 and "shown" not in log


def test_a_log_that_cannot_be_opened_leaves_everything_on_the_terminal(tmp_path):
    proc, log = run(tmp_path, """
        import logging
        import torch
        import tko.logroute
        logging.getLogger("torch._inductor.w").debug("kept")
        tko.logroute.routed_print("printed")
    """, log=str(tmp_path / "no" / "such" / "dir" / "model.log"))
    assert proc.returncode == 0, proc.stderr
    assert "kept" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == "printed\n"


def test_routed_print_keeps_an_explicit_file(tmp_path):
    proc, log = run(tmp_path, """
        import sys
        import tko.logroute
        tko.logroute.routed_print("to the log", end="!\\n")
        tko.logroute.routed_print("to stderr", file=sys.stderr)
    """)
    assert proc.returncode == 0, proc.stderr
    assert log == "to the log!\n"
    assert proc.stderr == "to stderr\n" and proc.stdout == ""


def test_no_route_asked_changes_nothing(tmp_path):
    proc, log = run(tmp_path, """
        import logging
        import torch
        logging.getLogger("torch._inductor.v").debug("visible")
    """, routes="")
    assert proc.returncode == 0, proc.stderr
    assert "visible" in proc.stderr and log == ""
