"""A tiny offline kustomize for k8s/: enough to render the base and its overlays.

Supports only what k8s/ uses — ``resources`` (files and folders holding a
kustomization), ``namespace``, ``images`` and ``patches`` given as
strategic-merge patch files — and refuses anything else, so a new feature in a
kustomization fails here instead of being ignored. The strategic merge knows
the list merge keys of the kinds k8s/ patches (containers by name, ports by
containerPort, ...); other lists are replaced, as kustomize does for lists
without a merge key. ``tests/deploy/test_k8s.py`` compares the output with
``kubectl kustomize`` wherever kubectl is installed.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

SUPPORTED = {"apiVersion", "kind", "resources", "namespace", "images", "patches"}
# field name -> merge key, for lists of objects (Kubernetes' patchMergeKey tags)
MERGE_KEYS = {
    "containers": "name", "initContainers": "name", "env": "name", "envFrom": None,
    "volumes": "name", "volumeMounts": "mountPath", "ports": None,
    "topologySpreadConstraints": "topologyKey", "imagePullSecrets": "name",
}
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition",
                  "PriorityClass", "StorageClass", "PersistentVolume"}

Resource = dict[str, Any]


class Unsupported(ValueError):
    """The kustomization uses something this renderer does not implement."""


def load_all(path: Path) -> list[Resource]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _key(res: Resource) -> tuple[str, str]:
    return res["kind"], res["metadata"]["name"]


def _port_key(item: dict[str, Any]) -> Any:
    # Container ports merge on containerPort, Service ports on port (both with protocol).
    return (item.get("containerPort", item.get("port")), item.get("protocol", "TCP"))


def merge(base: Any, patch: Any, field: str = "") -> Any:
    """Strategic merge of ``patch`` into ``base`` (neither is modified)."""
    if isinstance(patch, dict) and isinstance(base, dict):
        if "$patch" in patch or any(k.startswith("$") for k in patch):
            raise Unsupported(f"directive in patch at {field!r}")
        out = copy.deepcopy(base)
        for k, v in patch.items():
            if v is None:
                out.pop(k, None)
            else:
                out[k] = merge(out.get(k), v, k) if k in out else copy.deepcopy(v)
        return out
    if isinstance(patch, list) and isinstance(base, list) and field in MERGE_KEYS \
            and all(isinstance(x, dict) for x in base + patch):
        if field == "envFrom":
            return copy.deepcopy(patch)  # no merge key: replaced
        key = _port_key if field == "ports" else (lambda item, k=MERGE_KEYS[field]: item.get(k))
        out_list = [copy.deepcopy(x) for x in base]
        for item in patch:
            for i, existing in enumerate(out_list):
                if key(existing) == key(item):
                    out_list[i] = merge(existing, item, field)
                    break
            else:
                out_list.append(copy.deepcopy(item))
        return out_list
    return copy.deepcopy(patch)


def _set_image(res: Resource, images: list[dict[str, str]]) -> None:
    spec = res.get("spec", {}).get("template", {}).get("spec", {})
    for container in spec.get("containers", []) + spec.get("initContainers", []):
        ref = container["image"].split("@", 1)[0]
        name, tag = ref.rsplit(":", 1) if ":" in ref.rsplit("/", 1)[-1] else (ref, "")
        for rule in images:
            if rule["name"] != name:
                continue
            unknown = set(rule) - {"name", "newName", "newTag", "digest"}
            if unknown:
                raise Unsupported(f"images: {sorted(unknown)}")
            new = rule.get("newName", name)
            if "digest" in rule:
                container["image"] = f"{new}@{rule['digest']}"
            else:
                tag = rule.get("newTag", tag)
                container["image"] = f"{new}:{tag}" if tag else new


def render(folder: Path) -> list[Resource]:
    """The resources of the kustomization in ``folder``, in the order they were listed."""
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text())
    unknown = set(kustomization) - SUPPORTED
    if unknown:
        raise Unsupported(f"{folder}: {sorted(unknown)}")
    out: list[Resource] = []
    for entry in kustomization.get("resources", []):
        target = (folder / entry).resolve()
        out += render(target) if target.is_dir() else load_all(target)
    seen: set[tuple[str, str]] = set()
    for res in out:
        if _key(res) in seen:
            raise ValueError(f"{folder}: {_key(res)} twice")
        seen.add(_key(res))
    for entry in kustomization.get("patches", []):
        if set(entry) != {"path"}:
            raise Unsupported(f"patches: only `path` is supported, not {sorted(entry)}")
        for patch in load_all(folder / entry["path"]):
            matches = [i for i, res in enumerate(out) if _key(res) == _key(patch)
                       and res["apiVersion"] == patch["apiVersion"]]
            if len(matches) != 1:
                raise ValueError(f"patch {entry['path']}: no single target {_key(patch)}")
            out[matches[0]] = merge(out[matches[0]], patch)
    images = kustomization.get("images", [])
    namespace = kustomization.get("namespace")
    for res in out:
        _set_image(res, images)
        if namespace and res["kind"] not in CLUSTER_SCOPED:
            res["metadata"]["namespace"] = namespace
    return out


__all__ = ["Unsupported", "load_all", "merge", "render"]
