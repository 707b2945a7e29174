import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProviderSim, startProviderSim } from "./server.js";
import { HUB_TOKEN, jsonHeaders, postJson } from "./test-support/sse.js";

let sim: ProviderSim;
beforeAll(async () => {
  sim = await startProviderSim({ jobSteps: 2 });
});
afterAll(() => sim.close());

const auth = { authorization: `Bearer ${HUB_TOKEN}` };
const getJson = async (url: string) => (await fetch(url, { headers: auth })).json();

async function expectMedia(url: string, contentType: string) {
  expect(url.startsWith(`${sim.url}/media/`)).toBe(true);
  const response = await fetch(url);
  expect(response.headers.get("content-type")).toBe(contentType);
  expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
}

describe("fal-ai queue", () => {
  it("moves IN_QUEUE -> IN_PROGRESS -> COMPLETED, then serves the result and its video", async () => {
    const submitted = await (
      await postJson(`${sim.url}/fal-ai/fal-ai/mochi-v1?_subdomain=queue`, { prompt: "a whale" })
    ).json();
    expect(submitted).toMatchObject({ status: "IN_QUEUE", request_id: expect.any(String) });
    expect(submitted.status_url).toBe(
      `${sim.url}/fal-ai/fal-ai/mochi-v1/requests/${submitted.request_id}/status?_subdomain=queue`,
    );
    const early = await fetch(submitted.response_url, { headers: auth });
    expect(early.status).toBe(400);
    const states = [];
    for (let poll = 0; poll < 3; poll++) states.push((await getJson(submitted.status_url)).status);
    expect(states).toEqual(["IN_QUEUE", "IN_PROGRESS", "COMPLETED"]);
    const result = await getJson(submitted.response_url);
    await expectMedia(result.video.url, "video/mp4");
  });

  it("uses the app (first two segments) in status URLs for nested model ids", async () => {
    const submitted = await (
      await postJson(`${sim.url}/fal-ai/fal-ai/flux/dev?_subdomain=queue`, { prompt: "x" })
    ).json();
    expect(submitted.status_url).toContain("/fal-ai/fal-ai/flux/requests/");
  });

  it("reports a failed job as COMPLETED with an error, and the result as an error", async () => {
    sim.setFault({ kind: "job-fails", message: "GPU on fire" });
    const submitted = await (
      await postJson(`${sim.url}/fal-ai/fal-ai/mochi-v1?_subdomain=queue`, { prompt: "x" })
    ).json();
    let status: { status: string; error?: string } = { status: "" };
    for (let poll = 0; poll < 3; poll++) status = await getJson(submitted.status_url);
    expect(status).toMatchObject({ status: "COMPLETED", error: "GPU on fire" });
    const result = await fetch(submitted.response_url, { headers: auth });
    expect(result.status).toBe(500);
    expect(await result.json()).toMatchObject({ detail: "GPU on fire" });
  });

  it("keeps a never-finishing job in progress", async () => {
    sim.setFault({ kind: "job-never-finishes" });
    const submitted = await (
      await postJson(`${sim.url}/fal-ai/fal-ai/mochi-v1?_subdomain=queue`, { prompt: "x" })
    ).json();
    const states = new Set<string>();
    for (let poll = 0; poll < 6; poll++) states.add((await getJson(submitted.status_url)).status);
    expect([...states]).toEqual(["IN_QUEUE", "IN_PROGRESS"]);
  });

  it("answers synchronous runs at once with image URLs or data URLs in sync mode", async () => {
    const result = await (
      await postJson(`${sim.url}/fal-ai/fal-ai/flux/schnell`, { prompt: "new prompt" })
    ).json();
    await expectMedia(result.images[0].url, "image/png");
    const sync = await (
      await postJson(`${sim.url}/fal-ai/fal-ai/flux/schnell`, { prompt: "p", sync_mode: true })
    ).json();
    expect(sync.images[0].url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });
});

describe("Replicate predictions", () => {
  it("polls starting -> processing -> succeeded through urls.get", async () => {
    const created = await postJson(`${sim.url}/replicate/v1/models/genmoai/mochi-1/predictions`, {
      input: { prompt: "a whale" },
    });
    expect(created.status).toBe(201);
    const prediction = await created.json();
    expect(prediction.status).toBe("starting");
    expect(prediction.urls.get).toBe(`${sim.url}/replicate/v1/predictions/${prediction.id}`);
    const processing = await getJson(prediction.urls.get);
    expect(processing.status).toBe("processing");
    const done = await getJson(prediction.urls.get);
    expect(done.status).toBe("succeeded");
    await expectMedia(done.output, "video/mp4");
  });

  it("answers once done with Prefer: wait", async () => {
    const response = await postJson(
      `${sim.url}/replicate/v1/predictions`,
      { version: "dfdf537ba482b029e0a761699e6f55e9162cfd159270bfe0e44857caa5f275a6", input: { text: "hi" } },
      jsonHeaders(undefined, { prefer: "wait" }),
    );
    expect(response.headers.get("preference-applied")).toBe("wait=60");
    const prediction = await response.json();
    expect(prediction.status).toBe("succeeded");
    await expectMedia(prediction.output, "audio/wav");
  });

  it("returns the recorded output for a recorded request", async () => {
    const response = await postJson(
      `${sim.url}/replicate/v1/models/black-forest-labs/flux-schnell/predictions`,
      {
        input: {
          prompt:
            "black forest gateau cake spelling out the words FLUX SCHNELL, tasty, food photography, dynamic shot",
        },
      },
      jsonHeaders(undefined, { prefer: "wait" }),
    );
    const prediction = await response.json();
    expect(prediction.output).toEqual([
      `${sim.url}/media/replicate.delivery/xezq/iaRSRo5gfEw2dC4yO9F4uS2d2OJ2pcSxuf6mwOQyJGjUaBIUA/out-0.webp`,
    ]);
    await expectMedia(prediction.output[0], "image/webp");
  });

  it("fails with an error, or keeps processing, on job faults", async () => {
    sim.setFault({ kind: "job-fails", message: "CUDA out of memory" });
    const failed = await (
      await postJson(
        `${sim.url}/replicate/v1/models/a/b/predictions`,
        { input: {} },
        jsonHeaders(undefined, { prefer: "wait" }),
      )
    ).json();
    expect(failed).toMatchObject({ status: "failed", error: "CUDA out of memory", output: null });
    sim.setFault({ kind: "job-never-finishes" });
    const stuck = await (
      await postJson(
        `${sim.url}/replicate/v1/models/a/b/predictions`,
        { input: {} },
        jsonHeaders(undefined, { prefer: "wait" }),
      )
    ).json();
    expect(stuck.status).toBe("processing");
    const cancel = await fetch(stuck.urls.cancel, { method: "POST", headers: auth });
    expect((await cancel.json()).status).toBe("canceled");
  });
});

describe("Black Forest Labs", () => {
  it("polls Pending until Ready with the sample URL, with Retry-After", async () => {
    const submitted = await (
      await postJson(`${sim.url}/black-forest-labs/v1/flux-dev`, { prompt: "a raccoon" })
    ).json();
    expect(submitted.polling_url).toBe(`${sim.url}/black-forest-labs/v1/get_result?id=${submitted.id}`);
    const first = await fetch(`${submitted.polling_url}&attempt=0`, { headers: auth });
    expect(first.headers.get("retry-after")).toBe("1");
    expect((await first.json()).status).toBe("Pending");
    expect((await getJson(submitted.polling_url)).status).toBe("Pending");
    const ready = await getJson(submitted.polling_url);
    expect(ready).toMatchObject({ status: "Ready", result: { prompt: "a raccoon" } });
    await expectMedia(ready.result.sample, "image/jpeg");
  });

  it("reports Error for failed jobs and Task not found for unknown ids", async () => {
    sim.setFault({ kind: "job-fails" });
    const submitted = await (
      await postJson(`${sim.url}/black-forest-labs/v1/flux-dev`, { prompt: "x" })
    ).json();
    const states = [];
    for (let poll = 0; poll < 3; poll++) states.push((await getJson(submitted.polling_url)).status);
    expect(states).toEqual(["Pending", "Pending", "Error"]);
    expect((await getJson(`${sim.url}/black-forest-labs/v1/get_result?id=nope`)).status).toBe(
      "Task not found",
    );
  });
});

describe("WaveSpeed and Novita video jobs", () => {
  it("WaveSpeed: created -> processing -> completed with outputs", async () => {
    const submitted = await (
      await postJson(`${sim.url}/wavespeed/api/v3/wavespeed-ai/wan-2.1/t2v-720p`, { prompt: "waves" })
    ).json();
    expect(submitted.data.status).toBe("created");
    const states = [];
    let last: { data: { status: string; outputs: string[] } } | undefined;
    for (let poll = 0; poll < 3; poll++) {
      last = await getJson(submitted.data.urls.get);
      states.push(last!.data.status);
    }
    expect(states).toEqual(["created", "processing", "completed"]);
    await expectMedia(last!.data.outputs[0]!, "video/mp4");
  });

  it("Novita: the synchronous /v3/hf route answers with the video URL", async () => {
    const reply = await (await postJson(`${sim.url}/novita/v3/hf/wan-t2v`, { prompt: "waves" })).json();
    await expectMedia(reply.video.video_url, "video/mp4");
    expect((await postJson(`${sim.url}/novita/v3/hf/wan-t2v`, {})).status).toBe(400);
  });

  it("Novita: task-result reaches TASK_STATUS_SUCCEED with a video", async () => {
    const { task_id } = await (
      await postJson(`${sim.url}/novita/v3/async/wan-t2v`, { prompt: "waves" })
    ).json();
    const url = `${sim.url}/novita/v3/async/task-result?task_id=${task_id}`;
    const states = [];
    let last: { task: { status: string }; videos: Array<{ video_url: string }> } | undefined;
    for (let poll = 0; poll < 3; poll++) {
      last = await getJson(url);
      states.push(last!.task.status);
    }
    expect(states).toEqual(["TASK_STATUS_QUEUED", "TASK_STATUS_PROCESSING", "TASK_STATUS_SUCCEED"]);
    await expectMedia(last!.videos[0]!.video_url, "video/mp4");
  });
});

describe("Z.ai asynchronous images", () => {
  it("goes PROCESSING -> SUCCESS with image_result, or FAIL on a job fault", async () => {
    const submitted = await (
      await postJson(`${sim.url}/zai-org/api/paas/v4/async/images/generations`, {
        model: "cogview-4",
        prompt: "a fox",
      })
    ).json();
    expect(submitted.task_status).toBe("PROCESSING");
    const url = `${sim.url}/zai-org/api/paas/v4/async-result/${submitted.id}`;
    const states = [];
    let last: { task_status: string; image_result?: Array<{ url: string }> } | undefined;
    for (let poll = 0; poll < 3; poll++) {
      last = await getJson(url);
      states.push(last!.task_status);
    }
    expect(states).toEqual(["PROCESSING", "PROCESSING", "SUCCESS"]);
    await expectMedia(last!.image_result![0]!.url, "image/png");

    sim.setFault({ kind: "job-fails" });
    const failing = await (
      await postJson(`${sim.url}/zai-org/api/paas/v4/async/images/generations`, {
        model: "cogview-4",
        prompt: "x",
      })
    ).json();
    const failedStates = [];
    for (let poll = 0; poll < 3; poll++) {
      failedStates.push(
        (await getJson(`${sim.url}/zai-org/api/paas/v4/async-result/${failing.id}`)).task_status,
      );
    }
    expect(failedStates.at(-1)).toBe("FAIL");
  });
});
