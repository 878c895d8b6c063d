import { Anchor, Text } from "~/ui/typography";
import type { ReactNode } from "react";

/** 'Please contact us on the Support page', under a failure screen, with anything else to add. */
export function ContactSupport({ children }: { children?: ReactNode }) {
  return (
    <Text size="sm">
      Please contact us on the <Anchor to="/support">Support page</Anchor>
      {children}.
    </Text>
  );
}
