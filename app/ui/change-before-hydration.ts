import { useEffect, useRef, type ChangeEvent } from "react";

type Control = HTMLInputElement | HTMLSelectElement;

/** Whether a control differs from what the server rendered: the user typed or picked before the page hydrated. */
export function changedBeforeHydration(control: Control): boolean {
  if (control instanceof HTMLSelectElement) return [...control.options].some((option) => option.selected !== option.defaultSelected);
  if (control.type === "checkbox" || control.type === "radio") return control.checked !== control.defaultChecked;
  return control.value !== control.defaultValue;
}

/**
 * On a slow link a page shows well before it hydrates, and what the user types or picks meanwhile reaches no
 * `onChange`: a step that tracks a control (the Hub address, the plan and its amount, whether Next is enabled)
 * would show what it rendered, not what the control holds, and put the rendered state back on its next render.
 * Once hydrated, this hands such a change to `onChange`, once; the returned ref goes on the control.
 */
export function useChangeBeforeHydration<E extends Control>(onChange: ((event: ChangeEvent<E>) => void) | undefined) {
  const ref = useRef<E>(null);
  const handOver = useRef(onChange);
  useEffect(() => {
    const control = ref.current;
    if (!control || !handOver.current || !changedBeforeHydration(control)) return;
    // The portal's handlers read the control only, so the control stands in for React's event.
    handOver.current({ target: control, currentTarget: control } as unknown as ChangeEvent<E>);
  }, []);
  return ref;
}

/** The same for a radio group: once hydrated, hands the value of a radio picked before then to `onChange`. */
export function useRadioPickedBeforeHydration(onChange: (value: string) => void) {
  const ref = useRef<HTMLDivElement>(null);
  const handOver = useRef(onChange);
  useEffect(() => {
    const radios = ref.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]') ?? [];
    const picked = [...radios].find((radio) => radio.checked && changedBeforeHydration(radio));
    if (picked) handOver.current(picked.value);
  }, []);
  return ref;
}
