import { writeFile } from "node:fs/promises";
import { InferenceClient } from "@huggingface/inference";

// Send the client's hub and router calls to this hub.
const hubFetch = (url, init) =>
  fetch(
    String(url)
      .replace("https://router.huggingface.co", "http://127.0.0.1:42225")
      .replace("https://huggingface.co", "http://127.0.0.1:42225"),
    init,
  );

const client = new InferenceClient(process.env.HF_TOKEN, { fetch: hubFetch });

const image = await client.textToImage({
  provider: "fal-ai",
  model: "black-forest-labs/FLUX.1-dev",
  inputs: "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k",
});

await writeFile("image.png", Buffer.from(await image.arrayBuffer()));
console.log("Saved image.png");
