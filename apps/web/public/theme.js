// Applied before first paint so a dark-theme reader never sees a light flash: index.html loads this file as a
// blocking classic script in <head> (a file rather than inline, for the pages' Content-Security-Policy, which
// allows no inline script). Mirrors src/features/theme/theme-storage.ts (key "theme": light | dark | system).
(() => {
  var stored = null;
  try {
    stored = localStorage.getItem("theme");
  } catch {}
  var choice = stored === "light" || stored === "dark" ? stored : "system";
  var dark = choice === "dark" || (choice === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  var root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
  root.dataset.theme = choice;
})();
