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
