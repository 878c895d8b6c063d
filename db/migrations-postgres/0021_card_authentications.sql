CREATE TABLE "card_authentications" (
	"setup_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"replaces_source_id" text,
	"set_as_primary" boolean NOT NULL,
	"close_to" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "card_setups" (
	"id" text PRIMARY KEY NOT NULL,
	"token_id" text NOT NULL,
	"status" text NOT NULL,
	"return_url" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card_authentications" ADD CONSTRAINT "card_authentications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;