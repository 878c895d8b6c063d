// Each Mantine part the app uses, imported from its own module rather than @mantine/core's index: the
// classic Remix compiler (esbuild) puts everything an index re-exports into one chunk that every page
// loads, while modules imported one by one land only in the chunks of the pages that use them
// (docs/decisions/060-css-and-javascript-per-route.md). tsconfig.json maps "@mantine-parts/*" to
// Mantine's ESM files for the bundler; these declarations give each one the types @mantine/core has.

declare module "@mantine-parts/components/Alert/Alert.module.css.mjs" {
  /** Mantine's Alert class names (CSS modules), for alerts drawn as Mantine's (app/ui/layout.tsx). */
  const classes: Record<"root" | "wrapper" | "body" | "title" | "label" | "icon" | "message" | "closeButton", string>;
  export default classes;
}
declare module "@mantine-parts/components/Anchor/Anchor.module.css.mjs" {
  /** Mantine's Anchor class name, for links drawn as Anchor without the component. */
  const classes: Record<"root", string>;
  export default classes;
}
declare module "@mantine-parts/components/Badge/Badge.module.css.mjs" {
  /** Mantine's Badge class names (CSS modules), for badges drawn as Mantine's (app/ui/typography.tsx). */
  const classes: Record<"root" | "label", string>;
  export default classes;
}
declare module "@mantine-parts/components/Button/Button.module.css.mjs" {
  /** Mantine's Button class names (CSS modules), for plain buttons drawn as Mantine's (app/ui/button.tsx). */
  const classes: Record<"root" | "inner" | "label" | "section" | "loader", string>;
  export default classes;
}
declare module "@mantine-parts/components/Card/Card.module.css.mjs" {
  /** Mantine's Card class names (CSS modules), for cards drawn as Mantine's (app/ui/layout.tsx). */
  const classes: Record<"root" | "section", string>;
  export default classes;
}
declare module "@mantine-parts/components/Checkbox/Checkbox.module.css.mjs" {
  /** Mantine's Checkbox class names (CSS modules), for checkboxes drawn as Mantine's (app/ui/inputs.tsx). */
  const classes: Record<"root" | "inner" | "input" | "icon", string>;
  export default classes;
}
declare module "@mantine-parts/components/Combobox/Combobox.module.css.mjs" {
  /** Mantine's Combobox class names (CSS modules): a plain select's chevron (app/ui/inputs.tsx). */
  const classes: Record<"chevron", string>;
  export default classes;
}
declare module "@mantine-parts/components/Group/Group.module.css.mjs" {
  /** Mantine's Group class name, for rows drawn as Group without the component. */
  const classes: Record<"root", string>;
  export default classes;
}
declare module "@mantine-parts/components/Input/Input.module.css.mjs" {
  /** Mantine's Input and Input.Wrapper class names (CSS modules), for fields drawn as Mantine's (app/ui/inputs.tsx). */
  const classes: Record<
    "wrapper" | "input" | "section" | "root" | "label" | "required" | "error" | "description",
    string
  >;
  export default classes;
}
declare module "@mantine-parts/components/List/List.module.css.mjs" {
  /** Mantine's List class names (CSS modules), for lists drawn as Mantine's (app/ui/typography.tsx). */
  const classes: Record<"root" | "item" | "itemWrapper" | "itemIcon", string>;
  export default classes;
}
declare module "@mantine-parts/components/Loader/Loader.module.css.mjs" {
  /** Mantine's Loader class names (CSS modules): a busy plain button's oval loader. */
  const classes: Record<"root" | "ovalLoader", string>;
  export default classes;
}
declare module "@mantine-parts/components/Paper/Paper.module.css.mjs" {
  /** Mantine's Paper class name, which a Card also carries. */
  const classes: Record<"root", string>;
  export default classes;
}
declare module "@mantine-parts/components/Radio/Radio.module.css.mjs" {
  /** Mantine's Radio class names (CSS modules), for radios drawn as Mantine's (app/ui/inputs.tsx). */
  const classes: Record<"root" | "inner" | "icon" | "radio", string>;
  export default classes;
}
declare module "@mantine-parts/components/SimpleGrid/SimpleGrid.module.css.mjs" {
  /** Mantine's SimpleGrid class names (CSS modules), for grids drawn as Mantine's (app/ui/layout.tsx). */
  const classes: Record<"root" | "container", string>;
  export default classes;
}
declare module "@mantine-parts/components/Stack/Stack.module.css.mjs" {
  /** Mantine's Stack class name, for columns drawn as Stack without the component. */
  const classes: Record<"root", string>;
  export default classes;
}
declare module "@mantine-parts/components/Table/Table.module.css.mjs" {
  /** Mantine's Table class names (CSS modules), for rows rendered without a component per cell. */
  const classes: Record<
    "table" | "th" | "tr" | "td" | "tbody" | "thead" | "caption" | "scrollContainer" | "scrollContainerInner",
    string
  >;
  export default classes;
}
declare module "@mantine-parts/components/Text/Text.module.css.mjs" {
  /** Mantine's Text class name, for text drawn as Text without the component. */
  const classes: Record<"root", string>;
  export default classes;
}
declare module "@mantine-parts/components/ThemeIcon/ThemeIcon.module.css.mjs" {
  /** Mantine's ThemeIcon class name, for icons drawn as Mantine's (app/ui/typography.tsx). */
  const classes: Record<"root", string>;
  export default classes;
}
declare module "@mantine-parts/components/Title/Title.module.css.mjs" {
  /** Mantine's Title class name, for headings drawn as Mantine's (app/ui/typography.tsx). */
  const classes: Record<"root", string>;
  export default classes;
}
declare module "@mantine-parts/components/UnstyledButton/UnstyledButton.module.css.mjs" {
  /** Mantine's UnstyledButton class name (CSS modules), which every Mantine button also carries. */
  const classes: Record<"root", string>;
  export default classes;
}
declare module "@mantine-parts/core/MantineProvider/create-theme/create-theme.mjs" {
  export { createTheme } from "@mantine/core";
}
declare module "@mantine-parts/utils/InlineInput/InlineInput.module.css.mjs" {
  /** Mantine's InlineInput class names (CSS modules): a radio's or checkbox's body, label, description and error. */
  const classes: Record<"root" | "body" | "labelWrapper" | "label" | "description" | "error", string>;
  export default classes;
}
