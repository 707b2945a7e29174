"""huggingface_hub's webhook functions against the hub (HF_ENDPOINT): create, list, get, update, disable,
enable, delete; each answer parsed into WebhookInfo by the client itself. Prints one JSON line of results."""
import json
import os

from huggingface_hub import HfApi
from huggingface_hub.errors import HfHubHTTPError

api = HfApi(token=os.environ["HF_TOKEN"])
url = os.environ["WEBHOOK_URL"]
steps = []

created = api.create_webhook(
    watched=[{"type": "user", "name": "alice"}, {"type": "model", "name": "alice/watched"}],
    url=url,
    domains=["repo", "discussions"],
    secret="py-secret",
)
assert len(created.id) == 24, created
assert created.url == url and created.secret == "py-secret" and created.disabled is False, created
assert sorted(created.domains) == ["discussions", "repo"], created
assert [(w.type, w.name) for w in created.watched] == [("user", "alice"), ("model", "alice/watched")], created
steps.append("create")

assert [w.id for w in api.list_webhooks()] == [created.id]
steps.append("list")

fetched = api.get_webhook(created.id)
assert fetched == created, (fetched, created)
steps.append("get")

updated = api.update_webhook(created.id, watched=[{"type": "org", "name": "acme"}], url=url + "?v=2", domains=["repo"])
assert updated.url == url + "?v=2" and updated.domains == ["repo"], updated
assert [(w.type, w.name) for w in updated.watched] == [("org", "acme")], updated
assert updated.secret == "py-secret", updated
steps.append("update")

assert api.disable_webhook(created.id).disabled is True
assert api.get_webhook(created.id).disabled is True
steps.append("disable")
assert api.enable_webhook(created.id).disabled is False
steps.append("enable")

api.delete_webhook(created.id)
try:
    api.get_webhook(created.id)
    raise AssertionError("a deleted webhook is still there")
except HfHubHTTPError as error:
    assert error.response.status_code == 404, error
assert api.list_webhooks() == []
steps.append("delete")

print(json.dumps({"ok": True, "steps": steps}))
