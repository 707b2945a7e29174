"""huggingface_hub's collection methods, unchanged, against a Modelhub hub (HF_ENDPOINT, HF_TOKEN: alice;
BOB_TOKEN: another user). alice/public-model and alice/private-model exist (the test made them)."""

import json
import os

from huggingface_hub import HfApi
from huggingface_hub.errors import HfHubHTTPError
from suite_steps import expect_status, step, steps

api = HfApi()
bob = HfApi(token=os.environ["BOB_TOKEN"])

step("create_collection, exists_ok, get_collection")
collection = api.create_collection(title="From Python", description="Made by huggingface_hub")
assert collection.slug.startswith("alice/from-python-"), collection.slug
assert collection.owner["name"] == "alice" and collection.private is False and collection.items == []
again = api.create_collection(title="From Python", exists_ok=True)
assert again.slug == collection.slug
expect_status(409, lambda: api.create_collection(title="From Python"))

step("add_collection_item with a note, update_collection_item, delete_collection_item")
collection = api.add_collection_item(collection.slug, item_id="alice/public-model", item_type="model", note="first")
assert [(i.item_id, i.item_type, i.note) for i in collection.items] == [("alice/public-model", "model", "first")]
api.add_collection_item(collection.slug, item_id="alice/public-model", item_type="model", exists_ok=True)
expect_status(409, lambda: api.add_collection_item(collection.slug, item_id="alice/public-model", item_type="model"))
collection = api.add_collection_item(collection.slug, item_id="alice/private-model", item_type="model")
first = collection.items[0]
api.update_collection_item(collection.slug, first.item_object_id, note="changed", position=3)
items = api.get_collection(collection.slug).items
assert [(i.item_id, i.note) for i in items] == [("alice/private-model", None), ("alice/public-model", "changed")], items
# bob sees the public collection without alice's private model, and may not change it.
assert [i.item_id for i in bob.get_collection(collection.slug).items] == ["alice/public-model"]
expect_status(403, lambda: bob.delete_collection_item(collection.slug, first.item_object_id))
api.delete_collection_item(collection.slug, first.item_object_id)
assert [i.item_id for i in api.get_collection(collection.slug).items] == ["alice/private-model"]

step("update_collection_metadata: private, title; list_collections; delete_collection")
updated = api.update_collection_metadata(collection.slug, private=True, title="Renamed", theme="green")
assert updated.private is True and updated.title == "Renamed" and updated.theme == "green"
assert updated.slug.endswith(collection.slug[-24:]) and "renamed" in updated.slug
expect_status(404, lambda: bob.get_collection(updated.slug))
# (the other tests of the file made collections of alice's too)
assert "Renamed" in [c.title for c in api.list_collections(owner="alice")]
assert "Renamed" not in [c.title for c in bob.list_collections(owner="alice")]
holding = [c.slug for c in api.list_collections(item="models/alice/private-model")]
assert updated.slug in holding and updated.slug not in [c.slug for c in api.list_collections(item="models/alice/public-model")], holding
api.delete_collection(updated.slug)
api.delete_collection(updated.slug, missing_ok=True)
expect_status(404, lambda: api.get_collection(updated.slug))

print(json.dumps({"ok": True, "steps": steps}))
