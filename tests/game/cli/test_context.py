"""The command line's stop signals: Ctrl-C and SIGTERM cancel the command's context at once, then unwind it."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

import pytest
from ortools.sat.python import cp_model

import game.cli.level
from ai.kernel.cpsat_run import solve_under
from game.cli.context import Terminated, command_context, stop_signals
from game.cli.main import main
from tests.conftest import ORIGINAL_NUMBER

pytestmark = pytest.mark.skipif(signal.getsignal(signal.SIGINT) is not signal.default_int_handler,
                                reason="Ctrl-C is handled by someone else here")


def test_sigterm_cancels_the_context_then_terminates() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated):
        with command_context(None) as ctx:
            signal.raise_signal(signal.SIGTERM)
    assert ctx.cancelled()
    assert signal.getsignal(signal.SIGTERM) is before
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_whatever_leaves_the_context_early_cancels_it() -> None:
    with pytest.raises(ValueError):
        with command_context(None) as ctx:
            raise ValueError("boom")
    assert ctx.cancelled()


def _hard_model() -> cp_model.CpModel:
    """A model CP-SAT does not finish in a minute."""
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, 400, f"x{i}") for i in range(120)]
    model.add_all_different(xs)
    for i in range(119):
        model.add(xs[i] + xs[i + 1] != 200 + i)
    model.maximize(sum(x * ((i * 7919) % 13) for i, x in enumerate(xs)))
    return model


def test_ctrl_c_during_a_cp_sat_search_interrupts_it() -> None:
    """CP-SAT would catch Ctrl-C itself and return as if its time were up: it must interrupt instead, and at
    once (the signal cancels the context while the main thread is still inside CP-SAT)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        with command_context(120.0) as ctx:
            threading.Timer(0.5, signal.raise_signal, args=(signal.SIGINT,)).start()
            solve_under(solver, _hard_model(), ctx)
            time.sleep(60)  # not reached: the interrupt comes first
    assert ctx.cancelled() and time.perf_counter() - started < 60


def test_main_prints_terminated_and_returns_143(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def terminated(spec: str) -> object:
        raise Terminated

    monkeypatch.setattr(game.cli.level, "load_level", terminated)
    assert main(["check", ORIGINAL_NUMBER]) == 143
    assert capsys.readouterr().err == "terminated\n"


def test_an_error_raised_while_a_signal_unwinds_is_the_interruption(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A library that turns the KeyboardInterrupt into its own error (an extension module's import cut
    short) still gives "interrupted", exit 130."""
    def cut_short(spec: str) -> object:
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            raise ImportError("initialization failed") from None
        return None

    monkeypatch.setattr(game.cli.level, "load_level", cut_short)
    assert main(["check", ORIGINAL_NUMBER]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_a_command_that_ends_on_the_signals_cancel_still_exits_as_interrupted(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A command whose code takes the interrupt as a cancel and returns its own "stopped" exit code: the
    signal still decides the exit code and the message."""
    def cancelled_quietly(spec: str) -> object:
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass
        raise game.cli.level.GameError("stopped (cancelled)")

    monkeypatch.setattr(game.cli.level, "load_level", cancelled_quietly)
    assert main(["check", ORIGINAL_NUMBER]) == 130
    assert capsys.readouterr().err.splitlines()[-1] == "interrupted"


def _report_handlers(pipe: multiprocessing.connection.Connection) -> None:
    pipe.send([signal.getsignal(signal.SIGINT) is signal.SIG_IGN, signal.getsignal(signal.SIGTERM) is signal.SIG_DFL,
               signal.set_wakeup_fd(-1)])


def test_a_forked_process_leaves_the_signals_to_its_parent() -> None:
    """A pool worker or a job's child ignores Ctrl-C, dies quietly on SIGTERM, never writes to the
    parent's wake-up pipe."""
    fork = multiprocessing.get_context("fork")
    receiver, sender = fork.Pipe(duplex=False)
    with stop_signals():
        child = fork.Process(target=_report_handlers, args=(sender,))
        child.start()
        answer = receiver.recv()
        child.join()
    assert answer == [True, True, -1]



@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 7)])
def test_a_child_forked_before_setting_its_handlers_dies_on_sigterm_and_ignores_ctrl_c(signum: int,
                                                                                       status: int) -> None:
    """A pool worker that gets SIGTERM while starting (the signal pending before its fork hooks reset the
    handlers) must die, not swallow the parent's exception and wait forever for work that never comes."""
    with stop_signals():
        handler = signal.getsignal(signum)
        assert callable(handler)
        pid = os.fork()
        if pid == 0:  # the child runs the parent's handler, as a signal pending at the fork does
            try:
                handler(signum, None)
            except BaseException:  # noqa: BLE001 - the bug: the parent's exception, then the child runs on
                os._exit(1)
            os._exit(7)
        _, wait_status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(wait_status) == status
