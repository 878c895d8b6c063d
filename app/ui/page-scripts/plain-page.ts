import { prefetchAfterLoad, type PrefetchFile } from "~/ui/prefetch";
import { TOAST_VISIBLE_MS } from "~/ui/toast-timing";

/**
 * What a page without React does with JavaScript (decision 138), in plain DOM code: it is all the page loads.
 * Each function takes the page as the server rendered it, so without JavaScript nothing is missing.
 */

/**
 * Checks a field (app/ui/plain-field.tsx) when the user leaves it, and shows the message under it as the
 * server would: `check` gives the message, or undefined when the value is fine. The field is marked
 * `data-checks-on-blur` once it answers.
 */
export function checkOnBlur(name: string, check: (value: string) => string | undefined) {
  const input = document.getElementById(name);
  if (!(input instanceof HTMLInputElement)) return;
  const errorId = `${name}-error`;
  input.addEventListener("blur", () => {
    const message = check(input.value);
    let error = document.getElementById(errorId);
    if (!message) {
      error?.remove();
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      return;
    }
    if (!error) {
      error = document.createElement("p");
      error.id = errorId;
      error.className = "gk-field-error";
      input.after(error);
    }
    error.textContent = message;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", errorId);
  });
  input.dataset.checksOnBlur = "";
}

/** The flash message (app/ui/toast.tsx) can be dismissed, and fades after a while, as on the other pages. */
export function dismissableToasts() {
  for (const region of document.querySelectorAll(".gk-toast-region")) {
    const dismiss = () => region.remove();
    region.querySelector(".gk-toast-close")?.addEventListener("click", dismiss);
    setTimeout(dismiss, TOAST_VISIBLE_MS);
  }
}

/**
 * Fetches what the next pages need into the cache once this page has loaded: the files its <script> names in
 * `data-prefetch` (app/ui/page-script.tsx).
 */
export function prefetchForNextPages() {
  const script = document.querySelector("script[data-prefetch]");
  const files: PrefetchFile[] = JSON.parse(script?.getAttribute("data-prefetch") ?? "[]");
  prefetchAfterLoad(files);
}
