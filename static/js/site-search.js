// The baked site's search page (templates/site/search.html): Pagefind's UI, started from
// this file rather than an inline script (the site is served with a strict CSP).
window.addEventListener("DOMContentLoaded", () => {
  // The "serve me over HTTP" note is for a page opened from disk only.
  const fileNote = document.getElementById("search-file-note");
  if (fileNote && window.location.protocol !== "file:") fileNote.hidden = true;
  const element = document.getElementById("search");
  if (!element || typeof PagefindUI === "undefined") return;
  // No thumbnails: our pages have no images, and the empty slot took a third of a phone.
  // The index comes in shards (campaign/publish/search.py): the site's pages in the
  // main bundle, battles and ships in bundles of their own, merged here.
  const shards = (element.dataset.shards || "").split(" ").filter(Boolean);
  new PagefindUI({
    element: "#search",
    bundlePath: element.dataset.bundle,
    mergeIndex: shards.map((name) => ({ bundlePath: `${element.dataset.bundle}shards/${name}/` })),
    showSubResults: true,
    showImages: false,
  });
});
