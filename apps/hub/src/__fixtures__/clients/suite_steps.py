"""What the huggingface_hub client suites share: the steps they report (each printed as it starts, all of
them on the last line) and the refusals they expect."""

from huggingface_hub.errors import HfHubHTTPError

steps = []


def step(name):
    steps.append(name)
    print(f"step: {name}", flush=True)


def expect_raises(error, call):
    try:
        call()
    except error:
        return
    raise AssertionError(f"expected {error.__name__}")


def expect_status(status, call):
    try:
        call()
    except HfHubHTTPError as error:
        assert error.response.status_code == status, (error.response.status_code, error.response.text)
        return error
    raise AssertionError(f"expected HTTP {status}")
