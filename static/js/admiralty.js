// Small progressive enhancements; every page works without this file.
// The language switch submits as soon as a language is picked (its button stays for
// browsers without JavaScript).
document.addEventListener("DOMContentLoaded", () => {
  for (const select of document.querySelectorAll("select[data-autosubmit]")) {
    const button = select.form.querySelector(".lang-go");
    if (button) button.hidden = true;
    select.addEventListener("change", () => select.form.submit());
  }
});

// Battle set-up: a "select the whole group" button per fleet/squadron of ships. The
// groups are swapped in again (htmx) when the sides change: one listener on the document.
function showCheckAll(root) {
  for (const button of root.querySelectorAll("[data-fleet-group] [data-check-all]")) {
    button.hidden = false;
  }
}
document.addEventListener("DOMContentLoaded", () => showCheckAll(document));
document.addEventListener("htmx:load", (event) => showCheckAll(event.target));
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("[data-check-all]");
  const group = button && button.closest("[data-fleet-group]");
  if (!group) return;
  for (const box of group.querySelectorAll("input[type=checkbox]")) box.checked = true;
});

// Slow actions (forms marked data-busy="Working…"): once sent, the button says so and
// every button of the form is disabled, so a second click cannot send it twice.
document.addEventListener("DOMContentLoaded", () => {
  const forms = document.querySelectorAll("form[data-busy]");
  for (const form of forms) {
    form.addEventListener("submit", (event) => {
      if (form.classList.contains("is-busy")) {
        event.preventDefault();
        return;
      }
      form.classList.add("is-busy");
      form.setAttribute("aria-busy", "true");
      const button = event.submitter || form.querySelector("button");
      // Disabled only after the browser has gathered the form's data: a disabled
      // submitter would not be sent.
      setTimeout(() => {
        for (const b of form.querySelectorAll("button")) b.disabled = true;
        if (button) {
          button.dataset.label = button.textContent;
          button.textContent = form.dataset.busy;
        }
      }, 0);
    });
  }
  // Back on this page from the next one (back/forward cache): the forms work again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const form of forms) {
      if (!form.classList.contains("is-busy")) continue;
      form.classList.remove("is-busy");
      form.removeAttribute("aria-busy");
      for (const b of form.querySelectorAll("button")) {
        b.disabled = false;
        if (b.dataset.label) b.textContent = b.dataset.label;
      }
    }
  });
});
