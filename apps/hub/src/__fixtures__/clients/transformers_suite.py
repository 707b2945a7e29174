"""transformers and tokenizers (no torch), unchanged, loading a repository uploaded to a Modelhub hub."""

import json
import os
import tempfile

from huggingface_hub import HfApi
from tokenizers import Tokenizer, models, pre_tokenizers

REPO = "alice/tiny-bert"
api = HfApi()
api.create_repo(REPO)
folder = tempfile.mkdtemp()
vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "hello": 5, "world": 6, "hub": 7}
tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer.save(os.path.join(folder, "tokenizer.json"))
with open(os.path.join(folder, "tokenizer_config.json"), "w") as f:
    json.dump(
        {"tokenizer_class": "PreTrainedTokenizerFast", "unk_token": "[UNK]", "pad_token": "[PAD]", "model_max_length": 32},
        f,
    )
with open(os.path.join(folder, "config.json"), "w") as f:
    json.dump(
        {
            "model_type": "bert",
            "architectures": ["BertModel"],
            "hidden_size": 16,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "intermediate_size": 32,
            "vocab_size": len(vocab),
        },
        f,
    )
api.upload_folder(repo_id=REPO, folder_path=folder, commit_message="tiny bert")

from transformers import AutoConfig, AutoTokenizer  # noqa: E402  (after the upload: importing is slow)

config = AutoConfig.from_pretrained(REPO)
assert config.model_type == "bert" and config.hidden_size == 16, config
loaded = AutoTokenizer.from_pretrained(REPO)
assert loaded("hello world hub")["input_ids"] == [5, 6, 7], loaded("hello world hub")
assert loaded("hello unknown")["input_ids"] == [5, 1]
# The catalogue's demo copies carry a tiny byte-level tokenizer: AutoTokenizer loads it and round-trips text.
for demo in ["Qwen/Qwen2.5-7B-Instruct", "deepseek-ai/DeepSeek-R1"]:
    demo_tokenizer = AutoTokenizer.from_pretrained(demo)
    text = "Hello, wörld! 你好"
    ids = demo_tokenizer(text)["input_ids"]
    assert demo_tokenizer.decode(ids) == text, (demo, ids)
    assert demo_tokenizer.eos_token in demo_tokenizer.get_vocab(), demo

print(json.dumps({"ok": True, "model_type": config.model_type}))
