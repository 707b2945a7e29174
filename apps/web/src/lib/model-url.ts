/** A model's page, `/{owner}/{name}` as on the public hub (the widget links there too). */
export function modelUrl(modelId: string, section?: string): string {
  const path = `/${modelId.split("/").map(encodeURIComponent).join("/")}`;
  return section ? `${path}/${section}` : path;
}
