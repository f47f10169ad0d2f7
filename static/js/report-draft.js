// The chroniclers' desk keeps a copy of the texts being typed in this browser
// (localStorage), so a session that ended before "Save" loses nothing: back on the
// editor after logging in again, the copy is put back in the fields with a notice.
// The copy goes once the page shows the same texts as saved (after a successful save),
// or when the chronicler discards it. Without JavaScript or storage, the form works as
// before.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-draft-key]");
  if (!form) return;
  const key = form.dataset.draftKey;
  const notice = document.getElementById("draft-notice");
  const fields = Array.from(form.querySelectorAll("textarea[name]"));
  const serverTexts = Object.fromEntries(fields.map((f) => [f.name, f.value]));
  let store;
  try {
    store = window.localStorage;
  } catch (error) {
    return; // storage refused (privacy settings): nothing to keep
  }

  const read = () => {
    try {
      return JSON.parse(store.getItem(key) || "null");
    } catch (error) {
      return null;
    }
  };
  const differs = (texts) =>
    fields.some((f) => f.name in texts && texts[f.name] !== serverTexts[f.name]);
  const keep = () => {
    const texts = Object.fromEntries(fields.map((f) => [f.name, f.value]));
    try {
      // a form sent back with errors holds texts not saved yet: always keep those
      if (form.dataset.draftSaved !== "1" || differs(texts)) {
        store.setItem(key, JSON.stringify({ texts }));
      } else {
        store.removeItem(key);
      }
    } catch (error) {
      // quota full: the form still saves normally
    }
  };

  const draft = read();
  // A form sent back with errors (draftSaved "0") shows the posted texts: leave the copy.
  if (draft && draft.texts && form.dataset.draftSaved === "1") {
    if (differs(draft.texts)) {
      fields.forEach((f) => {
        if (f.name in draft.texts) {
          f.value = draft.texts[f.name];
          const folded = f.closest("details");
          if (folded && f.value) folded.open = true;
        }
      });
      if (notice) notice.hidden = false;
      // the live preview (htmx, on input) shows the restored texts
      fields[0].dispatchEvent(new Event("input", { bubbles: true }));
    } else {
      store.removeItem(key); // saved: the page shows these very texts
    }
  }

  form.addEventListener("input", keep);
  form.addEventListener("submit", keep);
  const discard = document.getElementById("draft-discard");
  if (discard) {
    discard.addEventListener("click", () => {
      fields.forEach((f) => {
        f.value = serverTexts[f.name];
      });
      store.removeItem(key);
      if (notice) notice.hidden = true;
      fields[0].dispatchEvent(new Event("input", { bubbles: true }));
    });
  }
});
