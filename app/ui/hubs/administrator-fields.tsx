import { SimpleGrid } from "~/ui/layout";
import { TextField } from "../fields";

/**
 * A cloud Hub's administrator, in the Hub wizard and the cloud trial. The
 * password is never sent back to the page: once kept (sealed), the step asks for it again.
 */
export function HubAdministratorFields({ passwordKept }: { passwordKept: boolean }) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="firstName" label="First name" required autoComplete="off" />
        <TextField name="lastName" label="Last name" required autoComplete="off" />
        <TextField name="userName" label="Username" required autoComplete="off" />
        <TextField name="email" label="Email" type="email" required autoComplete="off" />
        <TextField name="phoneNumber" label="Phone number" type="tel" autoComplete="off" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField
          name="password"
          label="Password"
          type="password"
          required
          autoComplete="new-password"
          description={`At least 8 characters with a digit, a lowercase and an uppercase letter.${passwordKept ? " Please type it again." : ""}`}
        />
        <TextField
          name="confirmPassword"
          label="Confirm password"
          type="password"
          required
          autoComplete="new-password"
        />
      </SimpleGrid>
    </>
  );
}
