#!/usr/bin/env bash
# Creates .venv with the Python clients that generated snippets are executed against
# (requests, huggingface_hub, openai, and the Pillow and numpy packages huggingface_hub returns images and embeddings with),
# transformers + tokenizers (no torch), which the hub's repository tests load models with, and datasets, which the
# mirror's client tests load a mirrored dataset with, and joblib, h5py and gguf, which the scanners' tests make joblib, legacy Keras .h5 and GGUF files with, from the machine's
# configured local package index.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x .venv/bin/python ] && .venv/bin/python -c 'import requests, huggingface_hub, hf_xet, openai, PIL, numpy, transformers, tokenizers, datasets, joblib, h5py, gguf' 2>/dev/null; then
  exit 0
fi
python3 -m venv .venv
index=$(pip config get global.extra-index-url 2>/dev/null | cut -d' ' -f1 || true)
if [ -n "$index" ]; then
  .venv/bin/pip install --quiet --index-url "$index" requests huggingface_hub hf_xet openai pillow numpy transformers tokenizers datasets joblib h5py gguf 2> >(grep -v "is ignored" >&2)
else
  .venv/bin/pip install --quiet requests huggingface_hub hf_xet openai pillow numpy transformers tokenizers datasets joblib h5py gguf
fi
