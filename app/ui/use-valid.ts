import { useEffect, useState } from "react";
import type { Validator } from "remix-validated-form";

/**
 * Whether the values pass the form's validator, for a Next button that is disabled while they do not. True
 * until checked: without JavaScript, and while the lazily loaded rules arrive, the server validates the post.
 */
export function useValid(validator: Validator<unknown>, values: Record<string, string>): boolean {
  const [valid, setValid] = useState(true);
  const key = JSON.stringify(values);
  useEffect(() => {
    let current = true;
    void validator.validate(JSON.parse(key)).then((result) => {
      if (current) setValid(!result.error);
    });
    return () => {
      current = false;
    };
  }, [validator, key]);
  return valid;
}
