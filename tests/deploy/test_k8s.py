"""k8s/: the base and every overlay render with kustomize, validate strictly against the Kubernetes
schemas (kubernetes-validate --strict), and agree with the service's own settings."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from kubernetes_validate import utils as kv

from service.api.pb import SERVICE_NAME
from service.ops.config import AccessMode, Settings
from service.sealing.keys import new_key_entry
from tests.deploy.kustomize import Resource, render

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "k8s"
TARGETS = {"base": K8S / "base", "production": K8S / "overlays" / "production"}
# The oldest Kubernetes the manifests are for (lifecycle.preStop.sleep is on by default
# from 1.30) and the newest kubernetes-validate knows.
K8S_VERSIONS = ("1.30.0", "1.37.0")
# kubernetes-validate bundles no CRD schemas: these are checked against k8s/schemas/.
CRD_SCHEMAS = {("monitoring.coreos.com/v1", "ServiceMonitor"):
               K8S / "schemas" / "servicemonitor-monitoring-v1.json"}


@pytest.fixture(scope="module", params=sorted(TARGETS))
def rendered(request: pytest.FixtureRequest) -> tuple[str, list[Resource]]:
    return request.param, render(TARGETS[request.param])


def _one(resources: list[Resource], kind: str, name: str | None = None) -> Resource:
    found = [r for r in resources if r["kind"] == kind
             and (name is None or r["metadata"]["name"] == name)]
    assert len(found) == 1, f"{kind} {name or ''}: {len(found)} found"
    return found[0]


def _container(resources: list[Resource]) -> dict[str, Any]:
    spec = _one(resources, "Deployment")["spec"]["template"]["spec"]
    assert len(spec["containers"]) == 1
    container: dict[str, Any] = spec["containers"][0]
    return container


def test_every_target_renders_the_full_set(rendered: tuple[str, list[Resource]]) -> None:
    _, resources = rendered
    kinds = sorted(r["kind"] for r in resources)
    assert kinds == sorted(["ServiceAccount", "ConfigMap", "Deployment", "Service", "Service",
                            "HorizontalPodAutoscaler", "PodDisruptionBudget", "NetworkPolicy",
                            "ServiceMonitor"])
    assert not any(r["kind"] == "Secret" for r in resources), "keys never live in the repository"


def test_overlays_are_the_overlay_dirs() -> None:
    """Every overlay folder is rendered and validated here."""
    found = {p.name for p in (K8S / "overlays").iterdir() if (p / "kustomization.yaml").exists()}
    assert found == set(TARGETS) - {"base"}


@pytest.mark.parametrize("version", K8S_VERSIONS)
def test_manifests_validate_strictly(rendered: tuple[str, list[Resource]], version: str) -> None:
    _, resources = rendered
    for res in resources:
        key = (res["apiVersion"], res["kind"])
        if key in CRD_SCHEMAS:
            jsonschema.validate(res, json.loads(CRD_SCHEMAS[key].read_text()))
        else:
            kv.validate(res, version, strict=True)  # raises on any error or unknown field


def test_strict_validation_catches_mistakes(rendered: tuple[str, list[Resource]]) -> None:
    """The checks above are live: a typo'd field, a wrong type and a bad CRD field all fail."""
    _, resources = rendered
    deployment = _one(resources, "Deployment")
    typo = copy.deepcopy(deployment)
    typo["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["grpc"]["prot"] = 50051
    with pytest.raises(kv.ValidationError):
        kv.validate(typo, K8S_VERSIONS[-1], strict=True)
    wrong = copy.deepcopy(deployment)
    wrong["spec"]["replicas"] = "three"
    with pytest.raises(kv.ValidationError):
        kv.validate(wrong, K8S_VERSIONS[-1], True)
    monitor = copy.deepcopy(_one(resources, "ServiceMonitor"))
    monitor["spec"]["endpoints"][0]["intervall"] = "15s"
    schema = json.loads(CRD_SCHEMAS[("monitoring.coreos.com/v1", "ServiceMonitor")].read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(monitor, schema)


def test_the_cli_validates_the_rendered_overlays(tmp_path: Path) -> None:
    """`kubernetes-validate --strict` itself, as an operator would run it; its only warning
    is for the CRD kinds it has no schema for (checked against k8s/schemas/ above)."""
    files = []
    for name, folder in TARGETS.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump_all(render(folder), sort_keys=False))
        files.append(str(path))
    cli = Path(sys.executable).parent / "kubernetes-validate"
    run = subprocess.run([str(cli), "--strict", "-k", K8S_VERSIONS[-1], *files],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert not [line for line in lines if line.startswith(("ERROR", "FATAL"))]
    warnings = [line for line in lines if line.startswith("WARN")]
    assert warnings and all("ServiceMonitor" in line for line in warnings), warnings
    assert sum(line.startswith("INFO") for line in lines) == 8 * len(TARGETS)


# --- agreement with the service's settings ------------------------------------------------


def _read_names() -> frozenset[str]:
    return Settings.env_names()


def _pod_env(resources: list[Resource]) -> dict[str, str]:
    """The environment a pod gets: the ConfigMap (envFrom), then the explicit env."""
    container = _container(resources)
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        config = _one(resources, "ConfigMap", source["configMapRef"]["name"])
        env.update(config["data"])
    for item in container.get("env", []):
        if "value" in item:
            env[item["name"]] = item["value"]
        else:
            ref = item["valueFrom"]["secretKeyRef"]
            assert ref["key"] == item["name"] and not ref.get("optional", False)
            env[item["name"]] = new_key_entry("test")  # stands in for the Secret
    return env


def test_environment_names_are_settings(rendered: tuple[str, list[Resource]]) -> None:
    _, resources = rendered
    names = set(_pod_env(resources))
    unknown = {n for n in names if n.startswith("CANASTA_")} - _read_names()
    assert not unknown, f"the service reads no {sorted(unknown)}"
    assert "CANASTA_SEAL_KEYS" in names and "CANASTA_DEV_KEY_FILE" not in names


def test_readme_lists_every_setting() -> None:
    table = (ROOT / "README.md").read_text().split("## Configuration", 1)[1]
    listed = set(re.findall(r"^\| `(CANASTA_[A-Z0-9_]+)` \|", table, flags=re.MULTILINE))
    assert _read_names() <= listed, sorted(_read_names() - listed)


# Read where they act, before any settings exist (service/ops/config.py's docstring).
READ_ELSEWHERE = {"CANASTA_WEB_DIR"}


def test_readme_defaults_are_the_service_defaults() -> None:
    """Each README row names a variable the service reads, and its Default column is what
    the service does without it (a dash: nothing, the empty value)."""
    table = (ROOT / "README.md").read_text().split("## Configuration", 1)[1]
    rows = re.findall(r"^\| `(CANASTA_[A-Z0-9_]+)` \| ([^|]+) \|", table, flags=re.MULTILINE)
    assert {n for n, _ in rows} <= _read_names() | READ_ELSEWHERE
    defaults = Settings()
    fields = {Settings.env_name(f): f for f in Settings.model_fields}
    for name, cell in rows:
        if name not in fields:
            continue
        value = getattr(defaults, fields[name])
        written = re.match(r"\s*(`([^`]*)`|–)", cell)
        assert written, f"{name}: no default in {cell!r}"
        if written.group(1) == "–":
            assert not value, f"{name}: README says none, the service has {value!r}"
            continue
        parsed = getattr(Settings.from_env({name: written.group(2)}), fields[name])
        assert parsed == value, f"{name}: README {written.group(2)!r}, service {value!r}"


def test_base_names_the_access_mode() -> None:
    """The base ConfigMap says CANASTA_ACCESS=tokens outright (not by leaving the default)."""
    config = _one(render(TARGETS["base"]), "ConfigMap", "canasta-rules-config")
    assert config["data"]["CANASTA_ACCESS"] == AccessMode.TOKENS.value


def test_production_never_trusts_calls_without_a_credential() -> None:
    """Players reach production: no rendered ConfigMap, container env or envFrom source sets
    CANASTA_ACCESS=trusted (in any spelling the service would accept), and the pod's settings
    read as tokens."""
    resources = render(TARGETS["production"])
    values = [r["data"]["CANASTA_ACCESS"] for r in resources
              if r["kind"] == "ConfigMap" and "CANASTA_ACCESS" in r.get("data", {})]
    for res in (r for r in resources if r["kind"] == "Deployment"):
        spec = res["spec"]["template"]["spec"]
        for container in spec.get("initContainers", []) + spec["containers"]:
            values += [e.get("value", "<from elsewhere>") for e in container.get("env", [])
                       if e["name"] == "CANASTA_ACCESS"]
    assert values, "production names its access mode"
    assert all(str(v).strip().lower() == AccessMode.TOKENS.value for v in values), values
    env = _pod_env(resources)
    assert Settings.from_env(env).access is AccessMode.TOKENS
    assert env["CANASTA_ACCESS"] == AccessMode.TOKENS.value


def test_ports_probes_and_settings_agree(rendered: tuple[str, list[Resource]]) -> None:
    _, resources = rendered
    settings = Settings.from_env(_pod_env(resources))  # raises if a value does not parse
    assert settings.bind in ("0.0.0.0", "::"), "a pod must listen beyond loopback"
    container = _container(resources)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"grpc": settings.grpc_port, "http": settings.http_port,
                     "metrics": settings.metrics_port}

    startup, ready, live = (container[k] for k in ("startupProbe", "readinessProbe",
                                                   "livenessProbe"))
    for probe in (startup, ready, live):
        assert probe["grpc"]["port"] == settings.grpc_port  # gRPC probes take no port names
    assert ready["grpc"]["service"] == SERVICE_NAME
    assert live["grpc"].get("service", "") == "" and startup["grpc"].get("service", "") == ""

    for service in (r for r in resources if r["kind"] == "Service"):
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in ports and port["port"] == ports[port["targetPort"]]
    policy = _one(resources, "NetworkPolicy")
    for rule in policy["spec"]["ingress"]:
        assert {p["port"] for p in rule["ports"]} <= set(ports)
    assert policy["spec"]["egress"] == []

    monitor = _one(resources, "ServiceMonitor")
    selected = [s for s in resources if s["kind"] == "Service" and
                monitor["spec"]["selector"]["matchLabels"].items()
                <= s["metadata"]["labels"].items()]
    assert len(selected) == 1, "exactly one Service is scraped (else pods count twice)"
    endpoint, = monitor["spec"]["endpoints"]
    assert endpoint["path"] == "/metrics"
    assert {p["name"]: p["targetPort"] for p in selected[0]["spec"]["ports"]}[endpoint["port"]] \
        == "metrics"

    spec = _one(resources, "Deployment")["spec"]["template"]["spec"]
    pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert spec["terminationGracePeriodSeconds"] > pre_stop + settings.grace_seconds


def test_only_prometheus_reaches_the_metrics_port(rendered: tuple[str, list[Resource]]) -> None:
    """/metrics is served on its own port (CANASTA_METRICS_PORT), so the HTTP port, which
    callers reach, does not answer it; the NetworkPolicy lets Prometheus (the monitoring
    namespace) reach that port alone, and the app's callers the API ports alone."""
    _, resources = rendered
    settings = Settings.from_env(_pod_env(resources))
    assert settings.metrics_port is not None
    assert settings.metrics_port not in (settings.grpc_port, settings.http_port)
    reach: dict[str, set[str]] = {}
    for rule in _one(resources, "NetworkPolicy")["spec"]["ingress"]:
        ports = {p["port"] for p in rule["ports"]}
        for peer in rule["from"]:
            namespace = peer.get("namespaceSelector", {}).get("matchLabels", {})
            who = namespace.get("kubernetes.io/metadata.name", "own namespace")
            reach.setdefault(who, set()).update(ports)
    assert reach == {"monitoring": {"metrics"}, "own namespace": {"grpc", "http"}}


def test_pods_are_locked_down(rendered: tuple[str, list[Resource]]) -> None:
    _, resources = rendered
    deployment = _one(resources, "Deployment")
    spec = deployment["spec"]["template"]["spec"]
    pod_security, container = spec["securityContext"], _container(resources)
    assert pod_security["runAsNonRoot"] and pod_security["runAsUser"] == 10001
    assert pod_security["seccompProfile"]["type"] == "RuntimeDefault"
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] and not security["allowPrivilegeEscalation"]
    assert security["capabilities"]["drop"] == ["ALL"]
    assert spec["automountServiceAccountToken"] is False
    assert {"requests", "limits"} <= set(container["resources"])
    assert {m["mountPath"] for m in container["volumeMounts"]} == {"/tmp"}

    labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= labels.items()
    for kind in ("PodDisruptionBudget",):
        assert _one(resources, kind)["spec"]["selector"]["matchLabels"].items() <= labels.items()
    for constraint in spec["topologySpreadConstraints"]:
        assert constraint["labelSelector"]["matchLabels"].items() <= labels.items()
    assert _one(resources, "NetworkPolicy")["spec"]["podSelector"]["matchLabels"].items() \
        <= labels.items()
    for service in (r for r in resources if r["kind"] == "Service"):
        assert service["spec"]["selector"].items() <= labels.items()
    hpa = _one(resources, "HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    assert hpa["spec"]["minReplicas"] >= 3
    # the HPA owns the count: a `replicas` in the Deployment would reset a scaled-out
    # Deployment to it on every `kubectl apply -k`
    assert "replicas" not in deployment["spec"]
