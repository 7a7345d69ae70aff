{{/* The chart's name. */}}
{{- define "migd.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's full name: the release name, with the chart's name unless it already holds it. */}}
{{- define "migd.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "migd.selectorLabels" -}}
app.kubernetes.io/name: {{ include "migd.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "migd.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "migd.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "migd.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "migd.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The scrape's ServiceAccount (auth.mode kubernetes): its token may get nodes/metrics only. */}}
{{- define "migd.scrapeName" -}}
{{- printf "%s-scrape" (include "migd.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "migd.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The config file in the ConfigMap: the values' own, else the shipped default.yaml. */}}
{{- define "migd.configFile" -}}
{{- if .Values.migd.configFile }}
{{- .Values.migd.configFile }}
{{- else }}
{{- .Files.Get "files/default.yaml" }}
{{- end }}
{{- end }}

{{/* Refuses value combinations the schema cannot express, naming the values to change. */}}
{{- define "migd.validate" -}}
{{- if and (eq .Values.auth.mode "none") (ne .Values.server.address "127.0.0.1") }}
{{- fail (printf "auth.mode none accepts REST calls without a token, so migd allows it only on a loopback address: set auth.mode to kubernetes or token, or server.address to 127.0.0.1 (it is %s)" .Values.server.address) }}
{{- end }}
{{- if and (eq .Values.auth.mode "token") (not .Values.auth.tokenSecret.name) }}
{{- fail "auth.mode token needs auth.tokenSecret.name: the Secret holding the token (key auth.tokenSecret.key)" }}
{{- end }}
{{- if and .Values.serviceMonitor.enabled (eq .Values.auth.mode "none") }}
{{- fail "serviceMonitor.enabled needs auth.mode kubernetes or token: auth.mode none binds migd (and its metrics) to 127.0.0.1, where Prometheus cannot reach it" }}
{{- end }}
{{- if and .Values.serviceMonitor.enabled (not .Values.service.enabled) }}
{{- fail "serviceMonitor.enabled needs service.enabled: the ServiceMonitor selects the Service" }}
{{- end }}
{{- if lt (int .Values.terminationGracePeriodSeconds) 200 }}
{{- fail (printf "terminationGracePeriodSeconds %v is shorter than a GPU reset: migd ends the plan step it is in before it exits, and a reset (up to 120 s) with NVML's initialisation after it (about a minute) may be that step; give 200 or more (default 300)" .Values.terminationGracePeriodSeconds) }}
{{- end }}
{{- if and .Values.nodes.restrict (not (include "migd.nodePolicyServed" .)) }}
{{- fail (printf "nodes.restrict needs ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1, Kubernetes 1.30 or later), which this cluster (%s) does not serve: without it every node's migd may relabel every node. Upgrade the cluster, or set nodes.restrict=false to accept that" .Capabilities.KubeVersion.Version) }}
{{- end }}
{{- include "migd.validateNodeGroups" . }}
{{- end }}

{{/*
"true" when the cluster serves the admission policy that keeps a node's migd to its own Node:
Kubernetes 1.30 or later and, where the API versions name kinds (an install reads them from the
cluster; helm template knows group versions only), the ValidatingAdmissionPolicy kind.
*/}}
{{- define "migd.nodePolicyServed" -}}
{{- $versions := .Capabilities.APIVersions }}
{{- $listsKinds := $versions.Has "apps/v1/DaemonSet" }}
{{- if and (semverCompare ">=1.30.0-0" .Capabilities.KubeVersion.Version) (or (not $listsKinds) ($versions.Has "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy")) }}true{{- end }}
{{- end }}

{{/* Refuses node groups that would put two migds on a node or cannot run, naming the group. */}}
{{- define "migd.validateNodeGroups" -}}
{{- $names := dict }}
{{- $surge := dig "rollingUpdate" "maxSurge" 0 (.Values.updateStrategy | default dict) }}
{{- range $i, $group := .Values.nodeGroups }}
{{- $name := $group.name | default "" }}
{{- if and (not $name) (hasKey $names $name) }}
{{- fail (printf "nodeGroups[%d] has no name, and another group has none: the default group (nodes without the migd.io/node-group label) is one entry" $i) }}
{{- end }}
{{- if hasKey $names $name }}
{{- fail (printf "nodeGroups[%d]: the name %s is taken by another group: each group is a DaemonSet named after it" $i $name) }}
{{- end }}
{{- $_ := set $names $name true }}
{{- if eq (include "migd.kubeletMode" $group) "dra" }}
{{- if semverCompare "<1.34.0-0" $.Capabilities.KubeVersion.Version }}
{{- fail (printf "nodeGroups[%d] (%s) is in kubelet.mode dra, which needs Kubernetes 1.34 or later (resource.k8s.io/v1); this cluster is %s" $i (default "the default group" $name) $.Capabilities.KubeVersion.Version) }}
{{- end }}
{{- if and (eq ($.Values.updateStrategy.type | default "RollingUpdate") "RollingUpdate") (ne (toString $surge) "0") }}
{{- fail (printf "nodeGroups[%d] (%s) is in kubelet.mode dra, which needs updateStrategy.rollingUpdate.maxSurge 0 (it is %v): a surge pod would be a second DRA driver of the node's pool" $i (default "the default group" $name) $surge) }}
{{- end }}
{{- end }}
{{- end }}
{{- if and .Values.dra.deviceClasses.create (not (include "migd.draEnabled" .)) }}
{{- fail "dra.deviceClasses.create needs a node group in kubelet.mode dra: without one no node publishes the classes' devices" }}
{{- end }}
{{- if and .Values.dra.shares (not (include "migd.draEnabled" .)) }}
{{- fail "dra.shares needs a node group in kubelet.mode dra: shares are DRA devices" }}
{{- end }}
{{- if and .Values.dra.extendedResources (not .Values.dra.deviceClasses.create) }}
{{- fail "dra.extendedResources needs dra.deviceClasses.create: the extended resources are DeviceClasses" }}
{{- end }}
{{- end }}

{{/*
The groups as rendered, as JSON: the default group first (the entry without a name, else a
device-plugin group), always, so that adding or removing named groups moves no node; then the
named ones, each on the nodes labelled migd.io/node-group=<name>.
*/}}
{{- define "migd.groups" -}}
{{- $default := dict "name" "" "kubelet" (dict "mode" "device-plugin") }}
{{- range .Values.nodeGroups }}
{{- if not .name }}
{{- $default = . }}
{{- end }}
{{- end }}
{{- $groups := list $default }}
{{- range .Values.nodeGroups }}
{{- if .name }}
{{- $groups = append $groups . }}
{{- end }}
{{- end }}
{{- toJson $groups }}
{{- end }}

{{/*
A node group's affinity: the user's (affinity) when it sets nodeAffinity, else one required term
per gpuNodeLabels entry (ORed); the default group adds "migd.io/node-group does not exist" to each
term, so a labelled node runs its group's migd only.
*/}}
{{- define "migd.groupAffinity" -}}
{{- $affinity := deepCopy (.root.Values.affinity | default dict) }}
{{- $terms := list }}
{{- if $affinity.nodeAffinity }}
{{- $terms = dig "requiredDuringSchedulingIgnoredDuringExecution" "nodeSelectorTerms" list $affinity.nodeAffinity }}
{{- else }}
{{- range $key, $value := (.root.Values.gpuNodeLabels | default dict) }}
{{- if not (kindIs "invalid" $value) }}
{{- $terms = append $terms (dict "matchExpressions" (list (dict "key" $key "operator" "In" "values" (list $value)))) }}
{{- end }}
{{- end }}
{{- end }}
{{- if not .group.name }}
{{- $unlabelled := dict "key" "migd.io/node-group" "operator" "DoesNotExist" }}
{{- if not $terms }}
{{- $terms = list (dict "matchExpressions" (list $unlabelled)) }}
{{- else }}
{{- $withDefault := list }}
{{- range $terms }}
{{- $term := deepCopy . }}
{{- $_ := set $term "matchExpressions" (append ($term.matchExpressions | default list) $unlabelled) }}
{{- $withDefault = append $withDefault $term }}
{{- end }}
{{- $terms = $withDefault }}
{{- end }}
{{- end }}
{{- if $terms }}
{{- $nodeAffinity := deepCopy ($affinity.nodeAffinity | default dict) }}
{{- $_ := set $nodeAffinity "requiredDuringSchedulingIgnoredDuringExecution" (dict "nodeSelectorTerms" $terms) }}
{{- $_ := set $affinity "nodeAffinity" $nodeAffinity }}
{{- end }}
{{- toYaml $affinity }}
{{- end }}

{{/* Whether a group's migd runs with CDI: dra groups always, others with migd.cdi.enabled. */}}
{{- define "migd.cdiEnabled" -}}
{{- if or (eq (include "migd.kubeletMode" .group) "dra") .root.Values.migd.cdi.enabled }}true{{- end }}
{{- end }}

{{/* A node group's kubelet mode (device-plugin unless it says dra). */}}
{{- define "migd.kubeletMode" -}}
{{- dig "kubelet" "mode" "device-plugin" . }}
{{- end }}

{{/* "true" when a node group is in kubelet.mode dra, else empty. */}}
{{- define "migd.draEnabled" -}}
{{- range .Values.nodeGroups }}
{{- if eq (include "migd.kubeletMode" .) "dra" }}true{{- end }}
{{- end }}
{{- end }}

{{/* A node group's DaemonSet name: the release's full name, with the group's name when it has one. */}}
{{- define "migd.groupFullname" -}}
{{- if .group.name }}
{{- printf "%s-%s" (include "migd.fullname" .root) .group.name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- include "migd.fullname" .root }}
{{- end }}
{{- end }}

{{/* A node group's nodeSelector: the group's keys over the chart's; a group's null drops a key. */}}
{{- define "migd.groupNodeSelector" -}}
{{- $selector := deepCopy (.root.Values.nodeSelector | default dict) }}
{{- range $key, $value := (.group.nodeSelector | default dict) }}
{{- if kindIs "invalid" $value }}
{{- $_ := unset $selector $key }}
{{- else }}
{{- $_ := set $selector $key $value }}
{{- end }}
{{- end }}
{{- with .group.name }}
{{- $_ := set $selector "migd.io/node-group" . }}
{{- end }}
{{- toYaml $selector }}
{{- end }}

{{/* The DRA socket directory: <hostPaths.kubeletPlugins>/<dra.driverName>, the same path in the pod. */}}
{{- define "migd.draPluginDir" -}}
{{- printf "%s/%s" (.Values.hostPaths.kubeletPlugins | trimSuffix "/") .Values.dra.driverName }}
{{- end }}
{{- /* The -mps DaemonSet's pods: a name of their own, so migd's DaemonSets never select them. */}}
{{- define "migd.mpsSelectorLabels" -}}
app.kubernetes.io/name: {{ include "migd.name" . }}-mps
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}
