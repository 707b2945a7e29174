import { describe, expect, it } from "vitest";
import { gateAnswers, gateForm } from "./gate-fields.js";

describe("the gate's request form", () => {
  it("reads extra_gated_fields as the public hub declares them", () => {
    const form = gateForm({
      extra_gated_heading: "Share your contact information",
      extra_gated_prompt: "Accept the licence first.",
      extra_gated_button_content: "Submit",
      extra_gated_fields: {
        "First Name": "text",
        Country: "country",
        "Date of birth": "date_picker",
        Affiliation: { type: "select", options: ["Student", { label: "Other", value: "other" }] },
        geo: "ip_location",
        "I accept the licence": "checkbox",
      },
    });
    expect(form.heading).toBe("Share your contact information");
    expect(form.prompt).toBe("Accept the licence first.");
    expect(form.button).toBe("Submit");
    expect(form.fields).toEqual([
      { kind: "text", label: "First Name" },
      { kind: "country", label: "Country" },
      { kind: "date", label: "Date of birth" },
      {
        kind: "select",
        label: "Affiliation",
        options: [
          { label: "Student", value: "Student" },
          { label: "Other", value: "other" },
        ],
      },
      { kind: "checkbox", label: "I accept the licence" },
    ]);
  });

  it("asks for nothing but the button when the card declares no fields", () => {
    expect(gateForm(undefined)).toEqual({ button: "Ask for access", fields: [] });
    expect(gateForm({ extra_gated_fields: ["not", "a", "map"] }).fields).toEqual([]);
  });

  it("reads an unknown type, or a select without options, as text", () => {
    expect(gateForm({ extra_gated_fields: { Why: "essay", Team: { type: "select" } } }).fields).toEqual([
      { kind: "text", label: "Why" },
      { kind: "text", label: "Team" },
    ]);
  });

  it("answers every field by its label, a ticked box as Yes", () => {
    const form = gateForm({
      extra_gated_fields: { Company: "text", "I agree": "checkbox", Other: "checkbox" },
    });
    const data = new FormData();
    data.set("Company", "  Acme ");
    data.set("I agree", "on");
    expect(gateAnswers(form, data)).toEqual({ Company: "Acme", "I agree": "Yes", Other: "No" });
  });
});
