import type { ComponentType } from "react";
import { createBrowserRouter, type LoaderFunctionArgs, Navigate, type RouteObject } from "react-router";
import { readListParams, toApiQuery } from "../features/models-list/list-params.js";
import { modelListQuery, modelQuery } from "../lib/api/models.js";
import { commitsQuery, historyPageParam, treeQuery } from "../lib/api/repo-files.js";
import { queryClient } from "../lib/query-client.js";
import { AppLayout } from "./app-layout.js";
import { RouteError } from "./route-error.js";

// Loaders start a page's data request at once, in parallel with downloading its code; they do not wait
// for it (the page shows its own loading state), so navigation is never blocked on the network.
function prefetchModels({ request }: LoaderFunctionArgs) {
  const params = readListParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(modelListQuery(toApiQuery(params)));
  // The list shows with its filters (models-list.tsx): their chunk is fetched now, not after the page's.
  void import("../features/models-list/models-filters.js");
  return null;
}

function prefetchModel({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(modelQuery(`${params.owner}/${params.name}`));
  return null;
}

/**
 * The card is parsed and sanitized in a worker. Its worker starts now, and the card goes to it as soon as the
 * model info is here: both overlap the page's code loading instead of waiting for the page to mount.
 */
function prefetchModelCard({ params }: LoaderFunctionArgs) {
  const info = queryClient.fetchQuery(modelQuery(`${params.owner}/${params.name}`));
  const parser = import("../features/model-page/card-in-worker.js").then((module) => {
    module.warmCardWorker();
    return module;
  });
  Promise.all([info, parser])
    .then(([model, { cardTreeInWorker }]) =>
      model.cardText?.trim() ? cardTreeInWorker(model.cardText) : undefined,
    )
    // The page asks again and says what failed (a missing model, a card the worker could not parse).
    .catch(() => {});
  return null;
}

// Only a different repository needs its data; the sections' own query strings (panel state) do not.
const sameRepo: RouteObject["shouldRevalidate"] = ({ currentParams, nextParams }) =>
  currentParams.owner !== nextParams.owner || currentParams.name !== nextParams.name;

/** A route's page, loaded when first visited: `name`, exported by the module `load` imports (its own chunk). */
function page<Module>(load: () => Promise<Module>, name: keyof Module & string) {
  return () => load().then((module) => ({ Component: module[name] as ComponentType }));
}

const repoCardPage = page(() => import("./pages/repo-card-page.js"), "RepoCardPage");

/** The repository, revision and path of a files route (`tree/:rev/*`, `commits/:rev/*`), as its page reads them. */
function filesRoute({ params, request }: LoaderFunctionArgs) {
  const kind = /^\/(datasets|spaces)\//.exec(new URL(request.url).pathname)?.[1];
  return {
    repo: {
      type: kind === "datasets" ? "dataset" : kind === "spaces" ? "space" : "model",
      id: `${params.owner}/${params.name}`,
    } as const,
    revision: params.rev ?? "main",
    path: (params["*"] ?? "").replace(/\/+$/, ""),
  };
}

// A folder's first page and a page of history are asked for beside the repository and the page's code, not
// after them.
function prefetchTree(args: LoaderFunctionArgs) {
  const { repo, revision, path } = filesRoute(args);
  void queryClient.prefetchInfiniteQuery(treeQuery(repo, revision, path));
  return null;
}

function prefetchCommits(args: LoaderFunctionArgs) {
  const { repo, revision, path } = filesRoute(args);
  const page = historyPageParam(new URL(args.request.url).searchParams);
  void queryClient.prefetchQuery(commitsQuery(repo, revision, page, path));
  return null;
}

/** The sections every repository page has (files, history, uploads, community, settings), under its id. */
const REPO_SECTIONS: RouteObject[] = [
  {
    path: "tree/:rev/*",
    loader: prefetchTree,
    lazy: page(() => import("./pages/repo-files-pages.js"), "FilesPage"),
  },
  { path: "blob/:rev/*", lazy: page(() => import("./pages/repo-files-pages.js"), "FilePage") },
  {
    path: "commits/:rev/*",
    loader: prefetchCommits,
    lazy: page(() => import("./pages/repo-files-pages.js"), "CommitsPage"),
  },
  { path: "commit/:oid", lazy: page(() => import("./pages/repo-files-pages.js"), "CommitPage") },
  { path: "upload/:rev/*", lazy: page(() => import("./pages/repo-upload-pages.js"), "UploadPage") },
  { path: "new/:rev/*", lazy: page(() => import("./pages/repo-upload-pages.js"), "NewFilePage") },
  { path: "edit/:rev/*", lazy: page(() => import("./pages/repo-upload-pages.js"), "EditFilePage") },
  { path: "discussions", lazy: page(() => import("./pages/repo-admin-pages.js"), "CommunityPage") },
  { path: "discussions/:num", lazy: page(() => import("./pages/repo-admin-pages.js"), "DiscussionPage") },
  { path: "settings", lazy: page(() => import("./pages/repo-admin-pages.js"), "SettingsPage") },
];

// Every page is its own chunk: the model page never downloads the playground or the widget builder.
export const router = createBrowserRouter([
  {
    path: "/",
    Component: AppLayout,
    ErrorBoundary: RouteError,
    // Shown while the first page's chunk loads; the inline theme already coloured the page.
    HydrateFallback: () => null,
    children: [
      // The landing page: what the hub is, trending and recent repositories (issue 38).
      { index: true, lazy: page(() => import("./pages/home-page.js"), "HomePage") },
      {
        path: "models",
        loader: prefetchModels,
        lazy: page(() => import("./pages/models-page.js"), "ModelsPage"),
      },
      {
        path: ":owner/:name",
        loader: prefetchModel,
        shouldRevalidate: sameRepo,
        lazy: page(() => import("./pages/model-layout.js"), "ModelLayout"),
        children: [
          {
            index: true,
            loader: prefetchModelCard,
            lazy: page(() => import("./pages/model-card-page.js"), "ModelCardPage"),
          },
          { path: "libraries/:library", lazy: page(() => import("./pages/library-page.js"), "LibraryPage") },
          { path: "local-apps/:app?", lazy: page(() => import("./pages/local-app-page.js"), "LocalAppPage") },
          { path: "inference", lazy: page(() => import("./pages/inference-page.js"), "InferencePage") },
          { path: "playground", lazy: page(() => import("./pages/playground-page.js"), "PlaygroundPage") },
          ...REPO_SECTIONS,
          {
            path: "chat-template",
            lazy: page(() => import("./pages/chat-template-page.js"), "ChatTemplatePage"),
          },
        ],
      },
      { path: "search", lazy: page(() => import("./pages/search-page.js"), "SearchPage") },
      { path: "datasets", lazy: page(() => import("./pages/repo-lists-pages.js"), "DatasetsPage") },
      { path: "spaces", lazy: page(() => import("./pages/repo-lists-pages.js"), "SpacesPage") },
      {
        path: "datasets/:owner/:name",
        shouldRevalidate: sameRepo,
        lazy: page(() => import("./pages/repo-layout.js"), "DatasetLayout"),
        children: [{ index: true, lazy: repoCardPage }, ...REPO_SECTIONS],
      },
      {
        path: "spaces/:owner/:name",
        shouldRevalidate: sameRepo,
        lazy: page(() => import("./pages/repo-layout.js"), "SpaceLayout"),
        children: [
          // The space's URL opens on its app when this hub runs it, else on its card (space-app-page.tsx).
          { index: true, lazy: page(() => import("./pages/space-app-page.js"), "SpaceHomePage") },
          { path: "app", lazy: page(() => import("./pages/space-app-page.js"), "SpaceAppPage") },
          { path: "card", lazy: page(() => import("./pages/space-app-page.js"), "SpaceCardPage") },
          ...REPO_SECTIONS,
        ],
      },
      { path: "new", lazy: page(() => import("./pages/new-repo-pages.js"), "NewModelPage") },
      { path: "new-dataset", lazy: page(() => import("./pages/new-repo-pages.js"), "NewDatasetPage") },
      { path: "new-space", lazy: page(() => import("./pages/new-repo-pages.js"), "NewSpacePage") },
      { path: ":owner", lazy: page(() => import("./pages/user-page.js"), "UserPage") },
      {
        path: "widget-builder",
        lazy: page(() => import("./pages/widget-builder-page.js"), "WidgetBuilderPage"),
      },
      { path: "login", lazy: page(() => import("./pages/sign-in-page.js"), "SignInPage") },
      { path: "join", lazy: page(() => import("./pages/sign-up-page.js"), "SignUpPage") },
      { path: "settings/:section", lazy: page(() => import("./pages/settings-page.js"), "SettingsPage") },
      { path: "settings", element: <Navigate to="/settings/profile" replace /> },
      { path: "admin/:section", lazy: page(() => import("./pages/admin-page.js"), "AdminPage") },
      { path: "admin", element: <Navigate to="/admin/settings" replace /> },
      {
        path: "organizations/invites/:code",
        lazy: page(() => import("./pages/org-invite-page.js"), "OrgInvitePage"),
      },
      {
        path: "organizations/:org/audit-log",
        lazy: page(() => import("./pages/org-audit-log-page.js"), "OrgAuditLogPage"),
      },
      {
        path: "organizations/:org",
        lazy: page(() => import("./pages/organization-page.js"), "OrganizationPage"),
      },
      { path: "*", lazy: page(() => import("./pages/not-found-page.js"), "NotFoundPage") },
    ],
  },
]);
