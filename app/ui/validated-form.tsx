import { useEffect, useMemo, useRef } from "react";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the one module that wraps it
import { ValidatedForm as LibraryValidatedForm, type FormProps, type Validator } from "remix-validated-form";

/**
 * remix-validated-form's ValidatedForm for rules loaded on first use (decision 105). A check that started
 * before the rules' chunk arrived can end after the form has gone (a dialog closed meanwhile); the library
 * would then write its result into the form's removed store and throw. Such a late result is dropped: the
 * promise handed to the library never settles once the form is gone. The rules are also fetched as the form
 * mounts, so that the first blur rarely waits for them.
 */
export function ValidatedForm<
  // The library's own bound on DataType: a form's parsed data may be any object (an array of chosen ids too).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  DataType extends { [fieldName: string]: any },
  Subaction extends string | undefined = undefined,
>({ validator, ...props }: FormProps<DataType, Subaction>) {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    void validator.validate({}).catch(() => undefined);
    return () => {
      mounted.current = false;
    };
  }, [validator]);
  const whileMounted = useMemo<Validator<DataType>>(
    () => ({
      validate: async (data) => {
        const result = await validator.validate(data);
        return mounted.current ? result : new Promise<never>(() => undefined);
      },
    }),
    [validator],
  );
  return <LibraryValidatedForm<DataType, Subaction> validator={whileMounted} {...props} />;
}
