/** The tab's title for the page being shown: React 19 moves a rendered `<title>` into the document head. */
export function PageTitle({ children }: { children: string }) {
  return <title>{`${children} · Modelhub`}</title>;
}
