import { Form } from "@remix-run/react";
import { Button } from "~/ui/button";
import { TextInput } from "~/ui/inputs";
import { Group } from "~/ui/layout";
import { Anchor } from "~/ui/typography";

interface SearchFormProps {
  /** The search landmark's name. */
  name: string;
  /** The field's label: what a search may start with. */
  label: string;
  description?: string;
  /** The search the page shows (`?q=`), kept in the field. */
  query: string;
  /** The list without a search: 'Show all' goes there while a search is shown. */
  allTo: string;
  width: number;
}

/**
 * A list's search: a GET form, so a search is a link (bookmarked, shared, opened in a new tab) and works without
 * JavaScript; the page reads `q` and pages its results in SQL.
 */
export function SearchForm({ name, label, description, query, allTo, width }: SearchFormProps) {
  return (
    <Form method="get" role="search" aria-label={name}>
      <Group gap="sm" align="flex-end">
        <TextInput
          id="customer-search"
          name="q"
          type="search"
          label={label}
          description={description}
          defaultValue={query}
          w={width}
        />
        <Button type="submit" variant="default">
          Search
        </Button>
        {query ? <Anchor to={allTo}>Show all</Anchor> : null}
      </Group>
    </Form>
  );
}
