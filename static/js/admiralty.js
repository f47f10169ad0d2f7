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

// Battle set-up: a "select the whole group" button per fleet/squadron of ships.
document.addEventListener("DOMContentLoaded", () => {
  for (const group of document.querySelectorAll("[data-fleet-group]")) {
    const button = group.querySelector("[data-check-all]");
    if (!button) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      for (const box of group.querySelectorAll("input[type=checkbox]")) box.checked = true;
    });
  }
});
