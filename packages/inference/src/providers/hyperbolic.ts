import { toMediaOutput } from "../protocols/binary-media.js";
import { textGenerationViaChat } from "../protocols/openai-chat.js";
import { expectShape, isArrayOf, isObject, isString } from "../validate.js";
import { openAiCompatible } from "./openai-compatible.js";

/** Hyperbolic: text generation goes through chat; images want `model_name` and answer `images[].image`. */
export const hyperbolic = openAiCompatible({
  id: "hyperbolic",
  baseUrl: "https://api.hyperbolic.xyz",
  apiKeyEnv: "HYPERBOLIC_API_KEY",
  tasks: {
    "text-generation": textGenerationViaChat(),
    "text-to-image": {
      path: () => "/v1/images/generations",
      body: ({ args, providerModelId }) => {
        const { inputs, parameters, ...rest } = args;
        return {
          ...rest,
          ...(isObject(parameters) ? parameters : {}),
          prompt: inputs,
          model_name: providerModelId,
        };
      },
      parse: (response, ctx) => {
        const ok = isObject(response) && isArrayOf(response.images, (x) => isObject(x) && isString(x.image));
        expectShape(
          response,
          ok && (response as { images: unknown[] }).images.length > 0,
          "text-to-image",
          "{images: [{image: base64}]}",
        );
        const base64 = (response as { images: Array<{ image: string }> }).images[0]!.image;
        return toMediaOutput({ kind: "base64", base64, type: "image/jpeg" }, ctx, response);
      },
    },
  },
});
