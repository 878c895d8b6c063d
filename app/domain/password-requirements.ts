// Apart from ./profile's schemas, so that the checklist on /account loads no zod (decision 105).

/** The new password's requirements, shown as a checklist with the unmet ones marked. */
export const PASSWORD_REQUIREMENTS = [
  { id: "length", label: "At least 10 characters", test: (password: string) => password.trim().length >= 10 },
  { id: "digit", label: "A number", test: (password: string) => /\d/.test(password) },
  { id: "lowercase", label: "A lowercase letter", test: (password: string) => /[a-z]/.test(password) },
  { id: "uppercase", label: "An uppercase letter", test: (password: string) => /[A-Z]/.test(password) },
  { id: "symbol", label: "A symbol", test: (password: string) => /[^A-Za-z0-9\s]/.test(password) },
] as const;

export const unmetPasswordRequirements = (password: string) =>
  PASSWORD_REQUIREMENTS.filter((requirement) => !requirement.test(password)).map((requirement) => requirement.id);
