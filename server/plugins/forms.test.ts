import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import errors from "#server/plugins/errors.ts";
import { encodeForm, parseForm } from "#server/http/form-body.ts";
import forms from "#server/plugins/forms.ts";

describe("the forms plugin", () => {
  test("a form's fields arrive as an object; a repeated field as a list", async () => {
    const server = Fastify();
    await server.register(forms);
    await server.register(errors);
    server.post("/echo", async (req) => req.body);
    const answer = await server.inject({
      method: "POST",
      url: "/echo",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "name=Ada+Lovelace&tag=a&tag=b&note=%C3%A9",
    });
    expect(answer.json()).toEqual({ name: "Ada Lovelace", tag: ["a", "b"], note: "é" });
  });

  test("fields named like an object's own properties are only fields", () => {
    const fields = parseForm("__proto__=x&toString=y&constructor=z");
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(Object.entries(fields)).toEqual([
      ["__proto__", "x"],
      ["toString", "y"],
      ["constructor", "z"],
    ]);
  });

  test("encoding a parsed form gives back the same fields", () => {
    const body = "a=1&b=2&b=3&c=%26%3D";
    expect(parseForm(encodeForm(parseForm(body)))).toEqual(parseForm(body));
  });
});
