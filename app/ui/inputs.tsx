import comboboxClasses from "@mantine-parts/components/Combobox/Combobox.module.css.mjs";
import checkboxClasses from "@mantine-parts/components/Checkbox/Checkbox.module.css.mjs";
import inputClasses from "@mantine-parts/components/Input/Input.module.css.mjs";
import radioClasses from "@mantine-parts/components/Radio/Radio.module.css.mjs";
import inlineClasses from "@mantine-parts/utils/InlineInput/InlineInput.module.css.mjs";
import {
  createContext,
  forwardRef,
  useContext,
  useId,
  type ChangeEvent,
  type ComponentPropsWithoutRef,
  type CSSProperties,
  type ReactNode,
} from "react";
import { useChangeBeforeHydration, useRadioPickedBeforeHydration } from "./change-before-hydration";
import { joinClasses, rem } from "./plain-parts";

/**
 * Mantine's TextInput, NativeSelect, Input.Wrapper, Radio, Radio.Group and Checkbox as plain elements: the tags,
 * ids, aria-* and data attributes, classes and CSS variables Mantine 8 renders for the props the portal passes
 * (tests/ui/plain-parts.test.tsx compares them), so Mantine's Input, InlineInput, Radio and Checkbox stylesheets
 * (the forms layer, decision 102) draw them unchanged. Mantine's components brought their render machinery (styles
 * API, props resolution, polymorphic boxes) for what is markup (decisions 125, 126; docs/performance.md).
 *
 * One deliberate difference: an input's own `aria-describedby` is kept beside its description and error, where
 * Mantine's Input overwrites it with theirs (and drops it when there are none).
 */

/** What every labelled field shares: Mantine's Input.Wrapper props the portal uses. */
export interface FieldLook {
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  /** width in px, as Mantine's `w` style prop */
  w?: number;
  style?: CSSProperties;
}

/** The static selector each part's classes are named after (`mantine-TextInput-root`...). */
type Selector = "TextInput" | "NativeSelect" | "RadioGroup";

/** The CSS variables of the wrapper's parts at Mantine's default size (sm); a radio group has no size. */
const LABEL_SIZE = { "--input-label-size": "var(--mantine-font-size-sm)" } as CSSProperties;
const DESCRIPTION_SIZE = {
  "--input-description-size": `calc(var(--mantine-font-size-sm) - ${rem(2)})`,
} as CSSProperties;
const ERROR_SIZE = { "--input-error-size": `calc(var(--mantine-font-size-sm) - ${rem(2)})` } as CSSProperties;

/** The ids Mantine's Input.Wrapper derives from the input's id, and the `aria-describedby` they make. */
function fieldIds(id: string, { description, error }: Pick<FieldLook, "description" | "error">) {
  const ids = { label: `${id}-label`, description: `${id}-description`, error: `${id}-error` };
  const describedBy = [error ? ids.error : null, description ? ids.description : null].filter(Boolean).join(" ");
  return { ...ids, describedBy: describedBy || undefined };
}

/** The caller's id, or one generated as Mantine does when none is given (hooks run either way). */
function useFieldId(given: string | undefined) {
  const generated = useId();
  return given ?? generated;
}

const rootStyle = (w: number | undefined, style: CSSProperties | undefined) =>
  w === undefined ? style : { ...style, width: rem(w) };

/** Mantine's `mantine-InputWrapper-x mantine-Selector-x` class pair, with the CSS module's own class first. */
const wrapperPart = (part: "root" | "label" | "required" | "description" | "error", selector: Selector | undefined) =>
  joinClasses(inputClasses[part], `mantine-InputWrapper-${part}`, selector && `mantine-${selector}-${part}`);

/**
 * Mantine's Input.Wrapper: the root, the label (with the required asterisk), the description above the input
 * and the error below it. Text inputs and selects are Mantine's default size (`data-size="sm"` and the size
 * variables); a radio group and the bare wrapper carry no size, as Mantine renders them.
 */
function FieldFrame({
  id,
  selector,
  labelElement = "label",
  label,
  description,
  error,
  required = false,
  w,
  style,
  children,
  ...others
}: FieldLook & { id: string; selector?: Selector; labelElement?: "label" | "div"; children: ReactNode } & Pick<
    ComponentPropsWithoutRef<"div">,
    "aria-label"
  >) {
  const sized = selector === "TextInput" || selector === "NativeSelect";
  const size = sized ? "sm" : undefined;
  const ids = fieldIds(id, { description, error });
  const Label = labelElement;
  return (
    <div
      style={rootStyle(w, style)}
      className={wrapperPart("root", selector)}
      data-size={size}
      data-error={error ? true : undefined}
      {...others}
    >
      {label ? (
        <Label
          style={sized ? LABEL_SIZE : undefined}
          className={wrapperPart("label", selector)}
          data-size={size}
          data-required={required || undefined}
          htmlFor={labelElement === "label" ? id : undefined}
          id={ids.label}
        >
          {label}
          {required ? (
            <span className={wrapperPart("required", selector)} aria-hidden="true">
              {" *"}
            </span>
          ) : null}
        </Label>
      ) : null}
      {description ? (
        <p
          style={sized ? DESCRIPTION_SIZE : undefined}
          className={wrapperPart("description", selector)}
          data-size={size}
          id={ids.description}
        >
          {description}
        </p>
      ) : null}
      {children}
      {error ? (
        <p
          style={sized ? ERROR_SIZE : undefined}
          className={wrapperPart("error", selector)}
          data-size={size}
          id={ids.error}
        >
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** What Mantine's Input puts around and on the input element itself. */
interface BoxLook {
  selector: "TextInput" | "NativeSelect";
  hasDescription: boolean;
  error: boolean;
  rightSection?: ReactNode;
  rightSectionWidth?: number;
}

/** Mantine's Input wrapper: its variables (in Mantine's order, for the same inline style) and data attributes. */
function inputBoxAttributes({ selector, hasDescription, error, rightSection, rightSectionWidth }: BoxLook) {
  const select = selector === "NativeSelect";
  return {
    style: {
      ...(hasDescription ? { "--input-margin-top": "calc(var(--mantine-spacing-xs) / 2)" } : {}),
      ...(error ? { "--input-margin-bottom": "calc(var(--mantine-spacing-xs) / 2)" } : {}),
      "--input-height": "var(--input-height-sm)",
      "--input-fz": "var(--mantine-font-size-sm)",
      ...(rightSectionWidth === undefined ? {} : { "--input-right-section-width": rem(rightSectionWidth) }),
      // Mantine sets it only where the section is given it explicitly: the select's chevron lets clicks through.
      ...(select ? { "--input-right-section-pointer-events": "none" } : {}),
    } as CSSProperties,
    className: `${inputClasses.wrapper} mantine-Input-wrapper mantine-${selector}-wrapper`,
    "data-variant": "default",
    "data-size": "sm",
    "data-error": error || undefined,
    "data-pointer": select || undefined,
    "data-with-right-section": rightSection ? true : undefined,
  };
}

/** The input element's own Mantine attributes; `aria-describedby` joins the wrapper's ids and the caller's. */
function inputElementAttributes(
  selector: BoxLook["selector"],
  id: string,
  error: boolean,
  describedBy: (string | undefined)[],
) {
  return {
    className: `${inputClasses.input} mantine-Input-input mantine-${selector}-input`,
    "data-variant": "default",
    "data-error": error || undefined,
    "aria-invalid": error,
    "aria-describedby": describedBy.filter(Boolean).join(" ") || undefined,
    id,
  };
}

function RightSection({ selector, children }: { selector: BoxLook["selector"]; children: ReactNode }) {
  return (
    <div data-position="right" className={`${inputClasses.section} mantine-Input-section mantine-${selector}-section`}>
      {children}
    </div>
  );
}

export type TextInputProps = FieldLook &
  Omit<ComponentPropsWithoutRef<"input">, "style" | "size"> & {
    rightSection?: ReactNode;
    rightSectionWidth?: number;
  };

/** Mantine's TextInput; the id is generated when not given, as Mantine's. */
export const TextInput = forwardRef<HTMLInputElement, TextInputProps>(function TextInput(
  {
    id,
    label,
    description,
    error,
    required,
    w,
    style,
    rightSection,
    rightSectionWidth,
    "aria-describedby": describedBy,
    ...others
  },
  ref,
) {
  const inputId = useFieldId(id);
  const look = { label, description, error, required, w, style };
  const invalid = Boolean(error);
  return (
    <FieldFrame id={inputId} selector="TextInput" {...look}>
      <div
        {...inputBoxAttributes({
          selector: "TextInput",
          hasDescription: Boolean(description),
          error: invalid,
          rightSection,
          rightSectionWidth,
        })}
      >
        <input
          ref={ref}
          {...others}
          required={required}
          {...inputElementAttributes("TextInput", inputId, invalid, [
            fieldIds(inputId, { description, error }).describedBy,
            describedBy,
          ])}
        />
        {rightSection ? <RightSection selector="TextInput">{rightSection}</RightSection> : null}
      </div>
    </FieldFrame>
  );
});

export type NativeSelectProps = Omit<FieldLook, "description" | "style"> &
  Omit<ComponentPropsWithoutRef<"select">, "style" | "size" | "id"> & { id: string };

/**
 * Mantine's NativeSelect (as InputBase with `component="select"` and the Combobox chevron): a native select
 * posts without JavaScript, unlike Mantine's Select.
 */
export function NativeSelect({ id, label, error, required, w, children, ...others }: NativeSelectProps) {
  const invalid = Boolean(error);
  const ref = useChangeBeforeHydration<HTMLSelectElement>(others.onChange);
  return (
    <FieldFrame id={id} selector="NativeSelect" label={label} error={error} required={required} w={w}>
      <div
        {...inputBoxAttributes({ selector: "NativeSelect", hasDescription: false, error: invalid, rightSection: true })}
      >
        <select
          ref={ref}
          {...others}
          required={required}
          {...inputElementAttributes("NativeSelect", id, invalid, [fieldIds(id, { error }).describedBy])}
        >
          {children}
        </select>
        <RightSection selector="NativeSelect">
          <svg
            className={`${comboboxClasses.chevron} mantine-ComboboxChevron-chevron`}
            data-combobox-chevron="true"
            data-error={invalid || undefined}
            viewBox="0 0 15 15"
            fill="none"
            xmlns="http://www.w3.org/2000/svg"
          >
            <path
              d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
              fill="currentColor"
              fillRule="evenodd"
              clipRule="evenodd"
            />
          </svg>
        </RightSection>
      </div>
    </FieldFrame>
  );
}

/** Mantine's bare Input.Wrapper: a label and an error around content that is not an input (Stripe's card element). */
export function InputWrapper({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: ReactNode;
  children: ReactNode;
}) {
  return (
    <FieldFrame id={id} label={label} error={error}>
      {children}
    </FieldFrame>
  );
}

/** What a radio reads from its group: Mantine's RadioGroup context. */
interface RadioChoice {
  name: string;
  value: string;
  onChange: (value: string) => void;
}

const RadioGroupContext = createContext<RadioChoice | null>(null);

/**
 * Mantine's Radio.Group, controlled: the radios take its name and are checked by its value. Its label is a
 * `<div>` that the `role="radiogroup"` box names (Mantine points `aria-labelledby` at it even when there is no
 * label; then the root's `aria-label` names the group).
 */
export function RadioGroup({
  id: givenId,
  name,
  value,
  onChange,
  children,
  ...look
}: Omit<FieldLook, "description" | "w" | "style"> & {
  id?: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  "aria-label"?: string;
}) {
  const id = useFieldId(givenId);
  const ids = fieldIds(id, { error: look.error });
  const ref = useRadioPickedBeforeHydration(onChange);
  return (
    <RadioGroupContext.Provider value={{ name, value, onChange }}>
      <FieldFrame id={id} selector="RadioGroup" labelElement="div" {...look}>
        <div ref={ref} role="radiogroup" aria-labelledby={ids.label} aria-describedby={ids.describedBy}>
          {children}
        </div>
      </FieldFrame>
    </RadioGroupContext.Provider>
  );
}

/** What a radio or a checkbox shows beside its control: Mantine's InlineInput props the portal uses. */
interface ChoiceLook {
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
}

/** Mantine's InlineInput: the control, then the label, description and error beside it. */
function InlineChoice({
  part,
  id,
  disabled,
  checked,
  label,
  description,
  error,
  rootClass,
  rootStyle: style,
  rootData,
  children,
}: ChoiceLook & {
  part: "Radio" | "Checkbox";
  id: string;
  disabled: boolean;
  checked: boolean | undefined;
  rootClass: string;
  rootStyle: CSSProperties;
  rootData?: { "data-variant": "filled" };
  children: ReactNode;
}) {
  return (
    <div
      style={style}
      className={`${rootClass} mantine-${part}-root ${inlineClasses.root}`}
      {...rootData}
      data-label-position="right"
      data-checked={checked || undefined}
    >
      <div className={`${inlineClasses.body} mantine-${part}-body`}>
        {children}
        <div
          className={`${inlineClasses.labelWrapper} mantine-${part}-labelWrapper`}
          data-disabled={disabled || undefined}
        >
          {label ? (
            <label
              className={`${inlineClasses.label} mantine-${part}-label`}
              htmlFor={id}
              data-disabled={disabled || undefined}
            >
              {label}
            </label>
          ) : null}
          {description ? (
            <p
              className={`${inlineClasses.description} mantine-${part}-description ${inputClasses.description} mantine-InputWrapper-description`}
            >
              {description}
            </p>
          ) : null}
          {error ? (
            <p
              className={`${inlineClasses.error} mantine-${part}-error ${inputClasses.error} mantine-InputWrapper-error`}
            >
              {error}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}

const RADIO_COLOR = { "--radio-color": "var(--mantine-color-gatekeeper-filled)" } as CSSProperties;
const CHECKBOX_COLOR = { "--checkbox-color": "var(--mantine-color-gatekeeper-filled)" } as CSSProperties;

type ControlProps = Omit<ComponentPropsWithoutRef<"input">, "type" | "style" | "className" | "size"> &
  Omit<ChoiceLook, "error">;

/**
 * Mantine's Radio in the theme's primary colour. In a RadioGroup it takes the group's name and is checked by the
 * group's value; alone, its own `name`, `checked` and `onChange` (or none: a plain radio in a form).
 */
export function Radio({
  id,
  value,
  label,
  description,
  disabled = false,
  checked,
  onChange,
  name,
  ...others
}: ControlProps & { value: string }) {
  const group = useContext(RadioGroupContext);
  const radioId = useFieldId(id);
  const isChecked = group ? group.value === value : checked;
  return (
    <InlineChoice
      part="Radio"
      id={radioId}
      disabled={disabled}
      checked={isChecked}
      label={label}
      description={description}
      rootClass={radioClasses.root}
      rootStyle={RADIO_COLOR}
    >
      <div className={`${radioClasses.inner} mantine-Radio-inner`} data-label-position="right">
        <input
          className={`mantine-focus-auto ${radioClasses.radio} mantine-Radio-radio`}
          {...others}
          name={group?.name ?? name}
          value={value}
          checked={isChecked}
          disabled={disabled}
          onChange={(event: ChangeEvent<HTMLInputElement>) => {
            group?.onChange(event.currentTarget.value);
            onChange?.(event);
          }}
          id={radioId}
          type="radio"
        />
        <svg
          xmlns="http://www.w3.org/2000/svg"
          fill="none"
          viewBox="0 0 5 5"
          aria-hidden="true"
          className={`${radioClasses.icon} mantine-Radio-icon`}
        >
          <circle cx="2.5" cy="2.5" r="2.5" fill="currentColor" />
        </svg>
      </div>
    </InlineChoice>
  );
}

/**
 * Mantine's Checkbox (filled, in the theme's primary colour); its error shows below the label, as Mantine's.
 * `type` is only there for remix-validated-form's `getInputProps({ type: "checkbox" })`.
 */
export function Checkbox({
  id,
  label,
  description,
  error,
  disabled = false,
  checked,
  ...others
}: ControlProps & Pick<ChoiceLook, "error"> & { type?: "checkbox" }) {
  const checkboxId = useFieldId(id);
  const ref = useChangeBeforeHydration<HTMLInputElement>(others.onChange);
  return (
    <InlineChoice
      part="Checkbox"
      id={checkboxId}
      disabled={disabled}
      checked={checked}
      label={label}
      description={description}
      error={error}
      rootClass={checkboxClasses.root}
      rootStyle={CHECKBOX_COLOR}
      rootData={{ "data-variant": "filled" }}
    >
      <div className={`${checkboxClasses.inner} mantine-Checkbox-inner`} data-label-position="right">
        <input
          ref={ref}
          id={checkboxId}
          data-error={error ? true : undefined}
          className={`mantine-focus-auto ${checkboxClasses.input} mantine-Checkbox-input`}
          {...others}
          checked={checked}
          disabled={disabled}
          type="checkbox"
        />
        <svg
          viewBox="0 0 10 7"
          fill="none"
          xmlns="http://www.w3.org/2000/svg"
          aria-hidden="true"
          className={`${checkboxClasses.icon} mantine-Checkbox-icon`}
        >
          <path
            d="M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z"
            fill="currentColor"
            fillRule="evenodd"
            clipRule="evenodd"
          />
        </svg>
      </div>
    </InlineChoice>
  );
}
