"""Writes a tiny Llama-architecture GGUF with random weights, for the local provider's tests.

Usage: python make-tiny-gguf.py OUT.gguf [SEED] [CHAT_TEMPLATE]

Its vocabulary is SentencePiece-style: <unk>, <s>, </s>, the 256 byte tokens and a few words, so that
llama.cpp tokenizes any text; its chat template is a small Jinja one (the hub renders it with packages/jinja).
About 300 KB: the tests load it in milliseconds on one CPU core.
"""

import os
import sys

import numpy as np
from gguf import GGUFWriter, TokenType

CHAT_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}</s>\n"
    "{% endfor %}{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)
WORDS = ["\u2581hello", "\u2581world", "\u2581the", "\u2581a", "<|user|>", "<|assistant|>", "<|system|>"]


def main() -> None:
    out = sys.argv[1]
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 40)

    tokens: list[bytes] = [b"<unk>", b"<s>", b"</s>"]
    types = [TokenType.UNKNOWN, TokenType.CONTROL, TokenType.CONTROL]
    tokens += [f"<0x{b:02X}>".encode() for b in range(256)]
    types += [TokenType.BYTE] * 256
    tokens += [word.encode() for word in WORDS]
    types += [TokenType.NORMAL] * len(WORDS)
    scores = [0.0] * len(tokens)
    for index in range(len(tokens) - len(WORDS), len(tokens)):
        scores[index] = -1.0

    # TINY_GGUF_CONTEXT: a longer context (default 512), for answers that take long enough to time out.
    ctx = int(os.environ.get("TINY_GGUF_CONTEXT", "512"))
    vocab, embd, layers, heads, ff = len(tokens), 64, 2, 4, 128
    writer = GGUFWriter(out, "llama")
    writer.add_name("tiny-random-llama")
    writer.add_vocab_size(vocab)
    writer.add_context_length(ctx)
    writer.add_embedding_length(embd)
    writer.add_block_count(layers)
    writer.add_feed_forward_length(ff)
    writer.add_head_count(heads)
    writer.add_head_count_kv(heads)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_dimension_count(embd // heads)
    writer.add_file_type(0)
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    writer.add_unk_token_id(0)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    # TINY_GGUF_ADD_BOS=1: the tokenizer asks for BOS before every sequence (as Llama's and Mistral's do).
    writer.add_add_bos_token(os.environ.get("TINY_GGUF_ADD_BOS") == "1")
    writer.add_chat_template(sys.argv[3] if len(sys.argv) > 3 else CHAT_TEMPLATE)

    def tensor(name: str, *shape: int) -> None:
        writer.add_tensor(name, (rng.standard_normal(shape) * 0.5).astype(np.float32))

    def ones(name: str, size: int) -> None:
        writer.add_tensor(name, np.ones(size, dtype=np.float32))

    tensor("token_embd.weight", vocab, embd)
    for layer in range(layers):
        ones(f"blk.{layer}.attn_norm.weight", embd)
        tensor(f"blk.{layer}.attn_q.weight", embd, embd)
        tensor(f"blk.{layer}.attn_k.weight", embd, embd)
        tensor(f"blk.{layer}.attn_v.weight", embd, embd)
        tensor(f"blk.{layer}.attn_output.weight", embd, embd)
        ones(f"blk.{layer}.ffn_norm.weight", embd)
        tensor(f"blk.{layer}.ffn_gate.weight", ff, embd)
        tensor(f"blk.{layer}.ffn_up.weight", ff, embd)
        tensor(f"blk.{layer}.ffn_down.weight", embd, ff)
    ones("output_norm.weight", embd)
    tensor("output.weight", vocab, embd)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


if __name__ == "__main__":
    main()
