import type { GenericObject, ValidationResult, Validator } from "remix-validated-form";
import type { ZodType, ZodTypeDef } from "zod";

/**
 * A form's validator whose zod schema, zod and @remix-validated-form/with-zod load on first use (decision 105).
 * `loadSchema` imports the schema's module with a dynamic `import()`, which esbuild puts in a chunk of its own
 * that the page does not preload: a page's JavaScript holds no zod, and the first blur or submit fetches it.
 * The server validates every action with the same object (there the import is a module already in the build).
 * Parametrised schemas take their parameter in the closure: `lazyValidator(() => import(...).then((m) => m.schema(ids)))`.
 */
export function lazyValidator<Output>(
  loadSchema: () => Promise<ZodType<Output, ZodTypeDef, unknown>>,
): Validator<Output> {
  let loading: Promise<Validator<Output>> | undefined;
  const load = () => {
    loading ??= Promise.all([import("@remix-validated-form/with-zod"), loadSchema()]).then(([{ withZod }, schema]) =>
      withZod(schema),
    );
    // A chunk that failed to arrive (a dropped connection) is asked for again on the next use.
    loading.catch(() => (loading = undefined));
    return loading;
  };
  return {
    validate: async (data) => {
      try {
        return await (await load()).validate(data);
      } catch (error) {
        if (typeof document === "undefined") throw error;
        return serverDecides(data);
      }
    },
  };
}

/**
 * The browser could not fetch the rules: the form posts as it would without JavaScript and the action's
 * validation answers. remix-validated-form posts the form's own data, not `data`, so it is left as typed.
 */
function serverDecides<Output>(data: GenericObject): ValidationResult<Output> {
  const submittedData = data instanceof FormData ? Object.fromEntries(data) : data;
  return { data: submittedData as Output, error: undefined, submittedData };
}
