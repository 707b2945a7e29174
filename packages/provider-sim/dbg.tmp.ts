import { request } from "node:http";
import { startProviderSim } from "@modelhub/provider-sim";

const sim = await startProviderSim();
const body = JSON.stringify({ model: "x", stream: true, messages: [{ role: "user", content: "hi" }] });
for (let run = 0; run < 3; run++) {
  const t0 = performance.now();
  const bytes = await new Promise<number>((resolve) => {
    const req = request(
      `${sim.url}/openai/v1/chat/completions`,
      {
        method: "POST",
        headers: {
          authorization: "Bearer hf_x",
          "content-type": "application/json",
          "x-sim-stream-chunks": "100000",
        },
      },
      (res) => {
        let n = 0;
        res.on("data", (c) => {
          n += c.length;
        });
        res.on("end", () => resolve(n));
      },
    );
    req.end(body);
  });
  console.log(
    "raw http 100k chunks",
    bytes,
    Math.round(performance.now() - t0),
    "ms",
    "rss",
    Math.round(process.memoryUsage().rss / 1e6),
    "MB",
  );
}
await sim.close();
