import type { FeatureType } from "../../lib/api/dataset-viewer.js";

/** An image cell as the viewer's API answers it (the public viewer's shape). */
interface ImageCell {
  src: string;
  height: number | null;
  width: number | null;
}
/** An audio cell: its sources, each with its MIME type. */
type AudioCell = { src: string; type: string }[];

/** Whether a column holds images or audio (a `datasets` Image or Audio feature), shown as such. */
export const mediaKindOf = (type: FeatureType): "image" | "audio" | undefined =>
  type._type === "Image" ? "image" : type._type === "Audio" ? "audio" : undefined;

/**
 * A thumbnail or a compact audio player in a row of the table (rows are one line tall): the image opens at
 * full size in a new tab; nothing is fetched before the row is drawn (lazy image, audio preload none).
 */
export function MediaCell({
  kind,
  value,
  label,
}: {
  kind: "image" | "audio";
  value: unknown;
  label: string;
}) {
  if (kind === "image") {
    const image = value as ImageCell | null;
    if (!image?.src) return null;
    const size = image.width && image.height ? `${image.width}×${image.height}` : "size unknown";
    return (
      <a href={image.src} target="_blank" rel="noreferrer" className="inline-block align-middle">
        <img
          src={image.src}
          alt={`${label} (${size})`}
          title={size}
          loading="lazy"
          className="h-8 w-auto max-w-24 rounded-sm object-contain"
          data-testid="viewer-image"
        />
      </a>
    );
  }
  const sources = (Array.isArray(value) ? value : []) as AudioCell;
  if (sources.length === 0) return null;
  return (
    // biome-ignore lint/a11y/useMediaCaption: dataset audio comes without captions to offer.
    <audio
      controls
      preload="none"
      aria-label={label}
      className="h-8 w-56 max-w-full"
      data-testid="viewer-audio"
    >
      {sources.map((source) => (
        <source key={source.src} src={source.src} type={source.type} />
      ))}
    </audio>
  );
}
