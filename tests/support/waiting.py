"""Waiting for a condition instead of a fixed time: ``until`` polls a check (a server's state, a page's promise that
Playwright's wait_for_function cannot await) until it holds or its deadline passes."""
import time


def until(check, timeout: float = 10.0, every: float = 0.05, what: str = "the condition"):
    """Calls ``check`` until it returns something true (returned), failing after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(every)  # the poll's interval: the condition above is what is awaited


def together(count_: int, call, caught: tuple = ()) -> list:
    """``call`` in ``count_`` threads released at once (a double tap, two phones at the same instant): what each
    answered, or the exception of ``caught`` it raised."""
    import threading

    answers, barrier = [], threading.Barrier(count_)

    def run():
        barrier.wait()
        try:
            answers.append(call())
        except caught as error:
            answers.append(error)

    threads = [threading.Thread(target=run) for _ in range(count_)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers
