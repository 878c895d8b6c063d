import classes from "@mantine-parts/components/Button/Button.module.css.mjs";
import loaderClasses from "@mantine-parts/components/Loader/Loader.module.css.mjs";
import unstyledClasses from "@mantine-parts/components/UnstyledButton/UnstyledButton.module.css.mjs";
import { Link, type LinkProps } from "~/ui/link";
import { forwardRef, useId, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode } from "react";
import { joinClasses, rem } from "./plain-parts";

/**
 * Mantine's Button as a plain `<button>` or `<Link>`: the classes, data attributes and CSS variables Mantine's
 * `Button` renders for the portal's theme (tests/ui/plain-parts.test.tsx compares them), so Mantine's Button
 * stylesheet draws it unchanged. Mantine's component brings its Loader and Transition to every page that imports
 * it, although the loader is only markup and the transition a short fade (what that cost: docs/performance.md).
 * While `loading`, the button is disabled and shows Mantine's oval loader over its hidden label, as Mantine's does.
 */
export interface ButtonLook {
  /** Mantine's variants in the portal's primary colour; none is the primary filled button. */
  variant?: "filled" | "default" | "light" | "subtle";
  /** A destructive action's button (Withdraw): filled red whatever the variant. */
  tone?: "danger";
  size?: "xs";
  loading?: boolean;
  /** The loader's accessible name while loading (Mantine's `loaderProps={{ "aria-label": ... }}`). */
  loadingLabel?: string;
}

/** What Mantine's variant colour resolver gives the theme's primary colour (gatekeeper) in each variant. */
const VARIANT_VARIABLES: Record<NonNullable<ButtonLook["variant"]> | "primary", Record<string, string>> = {
  // Without a variant Mantine sets only the text colour: the stylesheet's defaults are the primary filled button.
  primary: { "--button-color": "var(--mantine-color-white)" },
  filled: {
    "--button-bg": "var(--mantine-color-gatekeeper-filled)",
    "--button-hover": "var(--mantine-color-gatekeeper-filled-hover)",
    "--button-color": "var(--mantine-color-white)",
    "--button-bd": `${rem(1)} solid transparent`,
  },
  default: {
    "--button-bg": "var(--mantine-color-default)",
    "--button-hover": "var(--mantine-color-default-hover)",
    "--button-color": "var(--mantine-color-default-color)",
    "--button-bd": `${rem(1)} solid var(--mantine-color-default-border)`,
  },
  light: {
    "--button-bg": "var(--mantine-color-gatekeeper-light)",
    "--button-hover": "var(--mantine-color-gatekeeper-light-hover)",
    "--button-color": "var(--mantine-color-gatekeeper-light-color)",
    "--button-bd": `${rem(1)} solid transparent`,
  },
  subtle: {
    "--button-bg": "transparent",
    "--button-hover": "var(--mantine-color-gatekeeper-light-hover)",
    "--button-color": "var(--mantine-color-gatekeeper-light-color)",
    "--button-bd": `${rem(1)} solid transparent`,
  },
};

const SIZE_VARIABLES = {
  xs: {
    "--button-height": "var(--button-height-xs)",
    "--button-padding-x": "var(--button-padding-x-xs)",
    "--button-fz": "var(--mantine-font-size-xs)",
  },
};

/** Mantine's slide-down transition when entered: the loader centred over the label. */
const LOADER_POSITION: CSSProperties = {
  transitionProperty: "transform, opacity",
  WebkitBackfaceVisibility: "hidden",
  transitionDuration: "150ms",
  transitionTimingFunction: "ease",
  transformOrigin: "center",
  opacity: 1,
  transform: `translate(-50%, calc(-50% + ${rem(1)}))`,
};

const LOADER_VARIABLES = {
  "--loader-size": "calc(var(--button-height) / 1.8)",
  "--loader-color": "var(--button-color)",
} as CSSProperties;

/** The root's attributes: what Mantine's Button and UnstyledButton put on it, in their order. */
/**
 * A destructive action's button: filled in the theme's error red (red.9, whose white text keeps the contrast that
 * Mantine's lighter reds do not), whatever the variant.
 */
const DANGER_VARIABLES: Record<string, string> = {
  "--button-bg": "var(--mantine-color-red-9)",
  "--button-hover": "var(--mantine-color-red-9)",
  "--button-color": "var(--mantine-color-white)",
  "--button-bd": `${rem(1)} solid transparent`,
};

const variantVariables = (variant: ButtonLook["variant"], tone: ButtonLook["tone"]) =>
  tone === "danger" ? DANGER_VARIABLES : VARIANT_VARIABLES[variant ?? "primary"];

function rootAttributes(
  { variant, tone, size, loading = false }: ButtonLook,
  disabled: boolean,
  className: string | undefined,
  style: CSSProperties | undefined,
) {
  return {
    style: {
      ...(size ? SIZE_VARIABLES[size] : {}),
      ...variantVariables(variant, tone),
      ...style,
    } as CSSProperties,
    className: joinClasses(
      "mantine-focus-auto",
      disabled || loading ? null : "mantine-active",
      classes.root,
      "mantine-Button-root",
      unstyledClasses.root,
      "mantine-UnstyledButton-root",
      className,
    ),
    "data-variant": variant,
    "data-size": size,
    "data-disabled": disabled || undefined,
    "data-loading": loading || undefined,
  };
}

function ButtonContent({ loading = false, loadingLabel, children }: ButtonLook & { children: ReactNode }) {
  return (
    <>
      {loading ? (
        <span style={LOADER_POSITION} className={`${classes.loader} mantine-Button-loader`} aria-hidden="true">
          <span
            style={LOADER_VARIABLES}
            className={`${loaderClasses.ovalLoader} ${loaderClasses.root} mantine-Loader-root`}
            aria-label={loadingLabel}
          />
        </span>
      ) : null}
      <span className={`${classes.inner} mantine-Button-inner`}>
        <span className={`${classes.label} mantine-Button-label`} data-loading={loading || undefined}>
          {children}
        </span>
      </span>
    </>
  );
}

/** A `<button>` (type="button" unless given) drawn as Mantine's Button; its ref is the `<button>`. */
export const Button = forwardRef<HTMLButtonElement, ButtonLook & ComponentPropsWithoutRef<"button">>(function Button(
  {
    variant,
    tone,
    size,
    loading,
    loadingLabel,
    disabled = false,
    type = "button",
    className,
    style,
    children,
    ...others
  },
  ref,
) {
  const look = { variant, tone, size, loading, loadingLabel };
  return (
    <button
      ref={ref}
      {...rootAttributes(look, disabled, className, style)}
      type={type}
      disabled={disabled || loading}
      {...others}
    >
      <ButtonContent {...look}>{children}</ButtonContent>
    </button>
  );
});

/**
 * The portal's `<Link>` (`~/ui/link`) drawn as Mantine's Button. While loading it is `aria-disabled`, where
 * Mantine puts `disabled` on the `<a>` (not an attribute links have).
 */
export function LinkButton({
  variant,
  size,
  loading,
  loadingLabel,
  className,
  style,
  children,
  ...others
}: ButtonLook & LinkProps) {
  const look = { variant, size, loading, loadingLabel };
  return (
    <Link {...rootAttributes(look, false, className, style)} aria-disabled={loading || undefined} {...others}>
      <ButtonContent {...look}>{children}</ButtonContent>
    </Link>
  );
}

/**
 * A link to something the member may not do (their role, or an email address still to verify) stays on the page
 * as a disabled button with the reason as visible text beside it: the reason is there without hover and without
 * JavaScript. `reason` null: the link. `plain`: drawn by the root stylesheet's .gk-button (pages that load no
 * Mantine stylesheet), else as Mantine's Button.
 */
export function GuardedLinkButton({
  reason,
  plain = false,
  ...props
}: ButtonLook & LinkProps & { reason: string | null; plain?: boolean }) {
  const id = useId();
  const { variant, size, children } = props;
  if (reason === null) {
    if (!plain) return <LinkButton {...props} />;
    return (
      <Link to={props.to} className="gk-button" data-variant={variant ?? "filled"}>
        {children}
      </Link>
    );
  }
  return (
    <span className="gk-guarded">
      {plain ? (
        <button type="button" className="gk-button" data-variant={variant ?? "filled"} disabled aria-describedby={id}>
          {children}
        </button>
      ) : (
        <Button variant={variant} size={size} disabled aria-describedby={id}>
          {children}
        </Button>
      )}
      <span id={id} className="gk-guarded-reason">
        {reason}
      </span>
    </span>
  );
}
