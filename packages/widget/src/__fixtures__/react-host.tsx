// A React host page for the browser test: the component under StrictMode, with controls the test drives.
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { TopProductsWidget } from "../react.js";

declare global {
  interface Window {
    hubUrl: string;
    setMaxProducts: (count: number) => void;
    hideWidget: () => void;
  }
}

function Host() {
  const [maxProducts, setMaxProducts] = useState(2);
  const [shown, setShown] = useState(true);
  window.setMaxProducts = setMaxProducts;
  window.hideWidget = () => setShown(false);
  return shown ? (
    <TopProductsWidget
      hubUrl={window.hubUrl}
      className="widget-holder"
      theme="dark"
      direction="vertical"
      maxProducts={maxProducts}
      noCredits
    />
  ) : null;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Host />
  </StrictMode>,
);
