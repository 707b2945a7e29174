"""huggingface_hub against a hub that scans (SCAN_POLICY=block): run by hf-scan-client.e2e.test.ts.

Uploads a malicious pickle made by Python's own pickle, a suspicious one and a safetensors file, waits for the scans, reads
the statuses as list_repo_tree(expand=True) and model_info(securityStatus=True) give them, and checks that
hf_hub_download of the unsafe file fails with the hub's message until the owner allows it.
"""

import json
import os
import pickle
import time

import requests
from huggingface_hub import HfApi, hf_hub_download


class Evil:
    def __reduce__(self):
        return (eval, ("1 + 1",))


api = HfApi()
repo = api.create_repo("alice/scanned").repo_id
evil = pickle.dumps({"weights": Evil()}, protocol=4)
header = json.dumps({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}).encode()
tensors = len(header).to_bytes(8, "little") + header + bytes(8)
api.upload_file(path_or_fileobj=evil, path_in_repo="evil.pkl", repo_id=repo)
api.upload_file(path_or_fileobj=tensors, path_in_repo="model.safetensors", repo_id=repo)
# A pickle importing a global on neither list: suspicious, as the public hub calls such imports.
odd = b"cunknown_package.module\nThing\n)R."
api.upload_file(path_or_fileobj=odd, path_in_repo="odd.pkl", repo_id=repo)

files = {}
for _ in range(300):
    files = {entry.path: entry for entry in api.list_repo_tree(repo, expand=True)}
    if all(entry.security and entry.security["status"] != "queued" for entry in files.values()):
        break
    time.sleep(0.2)
security = files["evil.pkl"].security
assert security["status"] == "unsafe" and security["safe"] is False, security
scan = security["pickle_import_scan"]
assert scan["highestSafetyLevel"] == "dangerous", scan
assert {"module": "builtins", "name": "eval", "safety": "dangerous"} in scan["imports"], scan
# Nothing found is "safe": a scanner read it (safetensors), or only the secrets scanner did (.gitattributes).
for path in ("model.safetensors", ".gitattributes"):
    assert files[path].security["status"] == "safe" and files[path].security["safe"] is True, (path, files[path].security)
assert files["odd.pkl"].security["status"] == "suspicious", files["odd.pkl"].security
assert files["odd.pkl"].security["pickle_import_scan"]["highestSafetyLevel"] == "suspicious"

# The wire shapes, key for key, as the public hub sends them (huggingface_hub indexes these keys).
endpoint = os.environ["HF_ENDPOINT"]
auth = {"Authorization": f"Bearer {os.environ['HF_TOKEN']}"}
tree = requests.get(f"{endpoint}/api/models/{repo}/tree/main", params={"expand": "true"}, headers=auth, timeout=30).json()
for entry in tree:
    assert set(entry["securityFileStatus"]) == {"status", "avScan", "pickleImportScan"}, entry
    assert entry["securityFileStatus"]["status"] in ("safe", "suspicious", "unsafe", "queued", "unscanned"), entry

status = api.model_info(repo, securityStatus=True).security_repo_status
assert set(status) == {"scansDone", "filesWithIssues"}, status
assert status["scansDone"] is True, status
issues = sorted(status["filesWithIssues"], key=lambda issue: issue["path"])
assert issues == [{"path": "evil.pkl", "level": "unsafe"}, {"path": "odd.pkl", "level": "suspicious"}], status

try:
    hf_hub_download(repo, "evil.pkl")
    raise SystemExit("an unsafe file was downloaded under SCAN_POLICY=block")
except SystemExit:
    raise
except Exception as error:  # the client wraps the HEAD's 403 (LocalEntryNotFoundError from HfHubHTTPError)
    said = f"{error} {error.__cause__}"
    assert "found unsafe" in said, said

allowed = requests.post(
    f"{endpoint}/api/models/{repo}/scan-allow/main/evil.pkl",
    headers={"Authorization": f"Bearer {os.environ['HF_TOKEN']}"},
    timeout=30,
)
assert allowed.status_code == 200, allowed.text
path = hf_hub_download(repo, "evil.pkl")
with open(path, "rb") as downloaded:
    assert downloaded.read() == evil
print(json.dumps({"ok": True, "imports": scan["imports"]}))
