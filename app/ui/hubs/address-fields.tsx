import { Text } from "~/ui/typography";
import { HUB_REGION_OPTIONS } from "~/domain/cloud-hub-steps";
import { SelectField, TextField } from "../fields";

/** A cloud Hub's subdomain, ending in the fixed Hub host (the Hub wizard's URL step and the cloud trial). */
export function SubdomainField({ host, onChange }: { host: string; onChange?: (subdomain: string) => void }) {
  return (
    <TextField
      name="subdomain"
      label="Subdomain"
      required
      autoComplete="off"
      rightSection={<Text size="sm">.{host}</Text>}
      rightSectionWidth={Math.min(320, host.length * 8 + 24)}
      onChange={onChange ? (event) => onChange(event.currentTarget.value) : undefined}
    />
  );
}

/** The hosting region as the form posts it ('1' US, '2' EU). */
export function RegionField() {
  return (
    <SelectField
      name="hubRegion"
      label="Hosting region"
      data={HUB_REGION_OPTIONS.map(({ value, label }) => ({ value, label }))}
      w={260}
    />
  );
}
