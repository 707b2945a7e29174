"""huggingface_hub against the hub's accounts: whoami and private-model visibility, as users run them.

Reads HF_ENDPOINT, WES_TOKEN (member of acme), OTTO_TOKEN (not a member), PRIVATE (an acme private model).
Prints one JSON line with what it saw; exits non-zero on the first surprise.
"""
import json
import os

from huggingface_hub import HfApi, whoami
from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

wes, otto, private = os.environ["WES_TOKEN"], os.environ["OTTO_TOKEN"], os.environ["PRIVATE"]
seen = {}

me = whoami(token=wes)
assert me["name"] == "wes", me
assert [(o["name"], o["roleInOrg"]) for o in me["orgs"]] == [("acme", "write")], me["orgs"]
assert me["auth"]["accessToken"]["role"] == "write", me["auth"]
seen["whoami"] = me["name"]

try:
    whoami(token="hf_" + "x" * 34)
    raise AssertionError("an unknown token was accepted")
except HfHubHTTPError as error:
    assert error.response.status_code == 401, error
    seen["bad_token"] = 401

member = [m.id for m in HfApi(token=wes).list_models(author="acme")]
outsider = [m.id for m in HfApi(token=otto).list_models(author="acme")]
anonymous = [m.id for m in HfApi(token=False).list_models(author="acme")]
assert private in member, member
assert private not in outsider and private not in anonymous, (outsider, anonymous)
seen["listed"] = {"member": private in member, "outsider": private in outsider, "anonymous": private in anonymous}

assert HfApi(token=wes).model_info(private).private is True
for token in (otto, False):
    try:
        HfApi(token=token).model_info(private)
        raise AssertionError(f"{private} was shown to {token!r}")
    except RepositoryNotFoundError:
        pass
seen["model_info_hidden"] = True
print(json.dumps(seen))
