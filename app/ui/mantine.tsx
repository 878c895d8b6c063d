import { MantineProvider } from "@mantine-parts/core/MantineProvider/MantineProvider.mjs";
import type { ReactNode } from "react";
import { theme } from "~/ui/theme";

/**
 * Mantine's context for the pages that render Mantine parts: the portal's layout puts it around its pages.
 * The theme's variables and Mantine's global classes come from a static stylesheet (app/styles/theme.css),
 * not an inline <style> computed on every request.
 */
export function MantineParts({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" withCssVariables={false} withGlobalClasses={false}>
      {children}
    </MantineProvider>
  );
}
