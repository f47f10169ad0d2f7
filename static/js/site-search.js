// The baked site's search page (templates/site/search.html): Pagefind's UI, started from
// this file rather than an inline script (the site is served with a strict CSP).
window.addEventListener("DOMContentLoaded", () => {
  const element = document.getElementById("search");
  if (!element || typeof PagefindUI === "undefined") return;
  new PagefindUI({ element: "#search", bundlePath: element.dataset.bundle, showSubResults: true });
});
