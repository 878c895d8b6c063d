import { useEffect, useRef, type ChangeEvent } from "react";

type Control = HTMLInputElement | HTMLSelectElement;

/** Whether a control differs from what the server rendered: the user typed or picked before the page hydrated. */
export function changedBeforeHydration(control: Control): boolean {
  if (control instanceof HTMLSelectElement)
    return [...control.options].some((option) => option.selected !== option.defaultSelected);
  if (control.type === "checkbox" || control.type === "radio") return control.checked !== control.defaultChecked;
  return control.value !== control.defaultValue;
}

/** Runs `run` on the element once, after the page has hydrated (or the component has mounted); the ref goes on the element. */
function useOnceHydrated<E extends HTMLElement>(run: (element: E) => void) {
  const ref = useRef<E>(null);
  const first = useRef(run);
  useEffect(() => {
    if (ref.current) first.current(ref.current);
  }, []);
  return ref;
}

/**
 * On a slow link a page shows well before it hydrates, and what the user types or picks meanwhile reaches no
 * `onChange`: a step that tracks a control (the Hub address, the plan and its amount, whether Next is enabled)
 * would show what it rendered, not what the control holds, and put the rendered state back on its next render.
 * Once hydrated, this hands such a change to `onChange`, once; the returned ref goes on the control.
 */
export function useChangeBeforeHydration<E extends Control>(onChange: ((event: ChangeEvent<E>) => void) | undefined) {
  return useOnceHydrated<E>((control) => {
    // The portal's handlers read the control only, so the control stands in for React's event.
    if (onChange && changedBeforeHydration(control))
      onChange({ target: control, currentTarget: control } as unknown as ChangeEvent<E>);
  });
}

/** The same for a radio group: once hydrated, hands the value of a radio picked before then to `onChange`. */
export function useRadioPickedBeforeHydration(onChange: (value: string) => void) {
  return useOnceHydrated<HTMLDivElement>((group) => {
    const radios = group.querySelectorAll<HTMLInputElement>('input[type="radio"]');
    const picked = [...radios].find((radio) => radio.checked && changedBeforeHydration(radio));
    if (picked) onChange(picked.value);
  });
}
