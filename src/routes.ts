import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("auth/action", "routes/auth-action.tsx"),
  route("waitlist", "routes/waitlist.tsx"),
  route("waitlist/confirm", "routes/waitlist-confirm.tsx"),
  route("waitlist/remove", "routes/waitlist-remove.tsx"),
  route("admin/waitlist", "routes/admin-waitlist.tsx"),
  route("admin/deliveries", "routes/admin-deliveries.tsx"),
  route("admin/activity", "routes/admin-activity.tsx"),
  route("contact", "routes/contact.tsx"),
  route("terms-of-service", "routes/terms-of-service.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("dpa", "routes/dpa.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
