import type { PipelineType } from "../pipelines.js";
import type { TaskDefinition } from "./types.js";

const IMAGE_IN = { type: "image", filename: "cats.jpg" } as const;

/** Vision tasks: images and videos in or out. */
export const CV_TASKS = {
  "depth-estimation": {
    summary: "Estimate, for each pixel of an image, how far it is from the camera.",
    models: [
      { id: "depth-anything/Depth-Anything-V2-Large-hf", description: "Robust monocular depth." },
      { id: "Intel/dpt-large", description: "Dense Prediction Transformer for depth." },
    ],
    io: { inputs: ["image"], outputs: ["depth-map"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "image", filename: "depth.png" }] },
  },
  "image-classification": {
    summary: "Assign a label to a whole image.",
    models: [
      { id: "google/vit-base-patch16-224", description: "Vision Transformer trained on ImageNet." },
      { id: "microsoft/resnet-50", description: "Classic ResNet-50 on ImageNet." },
      { id: "timm/mobilenetv3_large_100.ra_in1k", description: "Small classifier for mobile devices." },
    ],
    datasets: [{ id: "ILSVRC/imagenet-1k", description: "1,000 everyday object classes." }],
    io: { inputs: ["image"], outputs: ["labels"] },
    demo: {
      inputs: [IMAGE_IN],
      outputs: [
        {
          type: "chart",
          data: [
            { label: "Egyptian cat", score: 0.51 },
            { label: "tabby cat", score: 0.3 },
          ],
        },
      ],
    },
  },
  "object-detection": {
    summary: "Find objects in an image, with a box and a label for each.",
    models: [
      { id: "facebook/detr-resnet-50", description: "DETR end-to-end detector trained on COCO." },
      { id: "PekingU/rtdetr_r50vd_coco_o365", description: "Real-time DETR detector." },
    ],
    io: { inputs: ["image"], outputs: ["boxes", "labels"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "image", filename: "cats-boxes.png" }] },
  },
  "image-segmentation": {
    summary: "Divide an image into regions and label each pixel.",
    models: [
      {
        id: "nvidia/segformer-b0-finetuned-ade-512-512",
        description: "Light semantic segmentation on ADE20k.",
      },
      { id: "facebook/mask2former-swin-large-coco-panoptic", description: "Panoptic segmentation on COCO." },
    ],
    io: { inputs: ["image"], outputs: ["masks", "labels"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "image", filename: "cats-segments.png" }] },
  },
  "text-to-image": {
    summary: "Generate an image from a text description.",
    models: [
      { id: "black-forest-labs/FLUX.1-dev", description: "High-quality 12B text-to-image model." },
      { id: "stabilityai/stable-diffusion-xl-base-1.0", description: "SDXL, widely fine-tuned." },
      { id: "black-forest-labs/FLUX.1-schnell", description: "FLUX distilled to 4 steps." },
      {
        id: "Efficient-Large-Model/Sana_1600M_1024px_diffusers",
        description: "Sana, fast 1024px generation.",
      },
    ],
    io: { inputs: ["text"], outputs: ["image"] },
    demo: {
      inputs: [
        {
          type: "text",
          label: "Prompt",
          content: "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k",
        },
      ],
      outputs: [{ type: "image", filename: "astronaut.png" }],
    },
  },
  "image-to-image": {
    summary: "Transform an image into another: edit, restyle, upscale, inpaint.",
    models: [
      { id: "timbrooks/instruct-pix2pix", description: "Edits an image by following an instruction." },
      { id: "stabilityai/stable-diffusion-x4-upscaler", description: "Four-times super-resolution." },
      { id: "lllyasviel/sd-controlnet-canny", description: "Generation guided by edges." },
    ],
    io: { inputs: ["image", "text"], outputs: ["image"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "image", filename: "cats-edited.png" }] },
  },
  "image-to-video": {
    summary: "Animate a still image into a short video.",
    models: [
      { id: "Wan-AI/Wan2.1-I2V-14B-720P", description: "High-quality image-to-video at 720p." },
      {
        id: "stabilityai/stable-video-diffusion-img2vid-xt",
        description: "Stable Video Diffusion, 25 frames.",
      },
    ],
    io: { inputs: ["image"], outputs: ["video"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "video", filename: "cats.mp4" }] },
  },
  "unconditional-image-generation": {
    summary: "Generate images with no input, by sampling what a model learned.",
    models: [
      { id: "google/ddpm-celebahq-256", description: "Diffusion model of faces." },
      { id: "google/ddpm-cifar10-32", description: "Small diffusion model of CIFAR-10 images." },
    ],
    io: { inputs: [], outputs: ["image"] },
    demo: { inputs: [], outputs: [{ type: "image", filename: "sample.png" }] },
  },
  "video-classification": {
    summary: "Assign a label (an action, an event) to a video clip.",
    models: [
      {
        id: "MCG-NJU/videomae-base-finetuned-kinetics",
        description: "VideoMAE on the Kinetics-400 actions.",
      },
      { id: "google/vivit-b-16x2-kinetics400", description: "Video Vision Transformer." },
    ],
    io: { inputs: ["video"], outputs: ["labels"] },
    demo: {
      inputs: [{ type: "video", filename: "playing-guitar.mp4" }],
      outputs: [{ type: "chart", data: [{ label: "playing guitar", score: 0.9 }] }],
    },
  },
  "text-to-video": {
    summary: "Generate a short video from a text description.",
    models: [
      { id: "Wan-AI/Wan2.1-T2V-14B", description: "Open text-to-video model." },
      { id: "Lightricks/LTX-Video", description: "Fast real-time video generation." },
      { id: "tencent/HunyuanVideo", description: "Large open video model." },
    ],
    io: { inputs: ["text"], outputs: ["video"] },
    demo: {
      inputs: [{ type: "text", label: "Prompt", content: "A young man walking on the street" }],
      outputs: [{ type: "video", filename: "walking.mp4" }],
    },
  },
  "zero-shot-image-classification": {
    summary: "Classify an image into labels chosen at request time.",
    models: [
      { id: "openai/clip-vit-large-patch14", description: "CLIP, images and texts in one space." },
      { id: "google/siglip-so400m-patch14-384", description: "SigLIP, sigmoid-loss CLIP." },
    ],
    io: { inputs: ["image", "labels"], outputs: ["labels"] },
    demo: {
      inputs: [IMAGE_IN, { type: "text", label: "Candidate labels", content: "cat, dog, llama" }],
      outputs: [
        {
          type: "chart",
          data: [
            { label: "cat", score: 0.97 },
            { label: "dog", score: 0.02 },
          ],
        },
      ],
    },
  },
  "mask-generation": {
    summary: "Produce masks for the objects of an image, optionally from point or box prompts.",
    models: [
      { id: "facebook/sam-vit-huge", description: "Segment Anything." },
      { id: "facebook/sam2-hiera-large", description: "Segment Anything 2, images and videos." },
    ],
    io: { inputs: ["image"], outputs: ["masks"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "image", filename: "cats-masks.png" }] },
  },
  "zero-shot-object-detection": {
    summary: "Detect objects named in free text, with no training on those classes.",
    models: [
      { id: "google/owlv2-base-patch16-ensemble", description: "OWLv2 open-vocabulary detector." },
      { id: "IDEA-Research/grounding-dino-base", description: "Grounding DINO, detection from phrases." },
    ],
    io: { inputs: ["image", "labels"], outputs: ["boxes", "labels"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "image", filename: "cats-boxes.png" }] },
  },
  "text-to-3d": {
    summary: "Generate a 3D object from a text description.",
    models: [{ id: "openai/shap-e", description: "Shap-E, 3D assets from text." }],
    io: { inputs: ["text"], outputs: ["3d-model"] },
    demo: {
      inputs: [{ type: "text", label: "Prompt", content: "A birthday cupcake" }],
      outputs: [{ type: "image", filename: "cupcake.gif" }],
    },
  },
  "image-to-3d": {
    summary: "Reconstruct a 3D object from one image.",
    models: [
      { id: "stabilityai/stable-fast-3d", description: "Textured mesh in under a second." },
      { id: "tencent/Hunyuan3D-2", description: "High-resolution textured 3D assets." },
    ],
    io: { inputs: ["image"], outputs: ["3d-model"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "image", filename: "cat-mesh.gif" }] },
  },
  "image-feature-extraction": {
    summary: "Turn an image into a vector of numbers, for search, clustering or as a backbone.",
    models: [
      { id: "facebook/dinov2-base", description: "Self-supervised general-purpose image features." },
      { id: "google/vit-base-patch16-224-in21k", description: "ViT pre-trained on ImageNet-21k." },
    ],
    io: { inputs: ["image"], outputs: ["embedding"] },
    demo: {
      inputs: [IMAGE_IN],
      outputs: [
        {
          type: "table",
          data: [
            ["Dimension 1", "..."],
            ["0.41", "..."],
          ],
        },
      ],
    },
  },
  "keypoint-detection": {
    summary: "Locate points of interest in an image, such as the joints of a body.",
    models: [
      { id: "usyd-community/vitpose-base-simple", description: "ViTPose human pose estimation." },
      { id: "magic-leap-community/superpoint", description: "SuperPoint interest points and descriptors." },
    ],
    io: { inputs: ["image"], outputs: ["keypoints"] },
    demo: { inputs: [IMAGE_IN], outputs: [{ type: "image", filename: "pose.png" }] },
  },
  "video-to-video": {
    summary: "Transform a video into another video: restyle, edit, extend.",
    models: [{ id: "Lightricks/LTX-Video", description: "LTX-Video also conditions on an input video." }],
    io: { inputs: ["video", "text"], outputs: ["video"] },
    demo: {
      inputs: [{ type: "video", filename: "input.mp4" }],
      outputs: [{ type: "video", filename: "output.mp4" }],
    },
  },
} satisfies Partial<Record<PipelineType, TaskDefinition>>;
