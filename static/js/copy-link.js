// A "Copy" button beside a read-only field (data-copy="<the field's id>"): the button is
// hidden without JavaScript, where the field can still be selected and copied by hand.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const field = document.getElementById(button.dataset.copy);
    if (!field) continue;
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        button.textContent = button.dataset.copied || label;
      } catch (error) {
        // No clipboard access (an insecure origin, a refusal): the text stays selected
        // for the reader's own copy.
        button.textContent = button.dataset.failed || label;
      }
    });
  }
});
