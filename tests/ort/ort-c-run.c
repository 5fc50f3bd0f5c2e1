// SPDX-License-Identifier: MIT
/*
 * ort-c-run: the e1 EP through ONNX Runtime's C API, as
 * Documentation/onnxruntime.md shows it: register the library, find the
 * e1npu OrtEpDevice, append it with options, run a model with one uint8
 * input and one output, compare with the expected bytes (the CPU EP's).
 *
 *   ort-c-run EP.so MODEL INPUT.bin DIM0 DIM1 EXPECTED.bin
 *
 * Prints "PASS: ..." or "FAIL: ..."; exit status 0 or 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxruntime_c_api.h>

static const OrtApi *api;

static int check(OrtStatus *s, const char *what)
{
	if (!s)
		return 0;
	printf("FAIL: C API: %s: %s\n", what, api->GetErrorMessage(s));
	api->ReleaseStatus(s);
	return 1;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

int main(int argc, char **argv)
{
	OrtEnv *env = NULL;
	OrtSessionOptions *so = NULL;
	OrtSession *sess = NULL;
	OrtMemoryInfo *mi = NULL;
	OrtValue *in = NULL, *out = NULL;
	const OrtEpDevice *const *devs = NULL;
	const OrtEpDevice *e1 = NULL;
	size_t ndev = 0, ilen = 0, elen = 0;
	unsigned char *idata, *edata, *odata = NULL;
	int64_t dims[2];
	const char *keys[] = { "log_level" }, *vals[] = { "summary" };
	const char *in_names[] = { "a" }, *out_names[] = { "z" };

	if (argc != 7) {
		fprintf(stderr, "usage: %s EP.so MODEL INPUT.bin DIM0 DIM1 EXPECTED.bin\n", argv[0]);
		return 2;
	}
	api = OrtGetApiBase()->GetApi(ORT_API_VERSION);
	idata = slurp(argv[3], &ilen);
	edata = slurp(argv[6], &elen);
	dims[0] = atoll(argv[4]);
	dims[1] = atoll(argv[5]);
	if (!idata || !edata || (size_t)(dims[0] * dims[1]) != ilen) {
		printf("FAIL: C API: cannot read %s / %s\n", argv[3], argv[6]);
		return 1;
	}
	if (check(api->CreateEnv(ORT_LOGGING_LEVEL_ERROR, "e1", &env), "CreateEnv") ||
	    check(api->RegisterExecutionProviderLibrary(env, "e1", argv[1]), "RegisterExecutionProviderLibrary") ||
	    check(api->GetEpDevices(env, &devs, &ndev), "GetEpDevices"))
		return 1;
	for (size_t i = 0; i < ndev; i++)
		if (!strcmp(api->EpDevice_EpName(devs[i]), "e1npu"))
			e1 = devs[i];
	if (!e1) {
		printf("FAIL: C API: no e1npu OrtEpDevice among %zu\n", ndev);
		return 1;
	}
	if (check(api->CreateSessionOptions(&so), "CreateSessionOptions") ||
	    check(api->SessionOptionsAppendExecutionProvider_V2(so, env, &e1, 1, keys, vals, 1),
		  "SessionOptionsAppendExecutionProvider_V2") ||
	    check(api->CreateSession(env, argv[2], so, &sess), "CreateSession") ||
	    check(api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &mi), "CreateCpuMemoryInfo") ||
	    check(api->CreateTensorWithDataAsOrtValue(mi, idata, ilen, dims, 2,
						      ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8, &in),
		  "CreateTensorWithDataAsOrtValue") ||
	    check(api->Run(sess, NULL, in_names, (const OrtValue *const *)&in, 1, out_names, 1, &out), "Run") ||
	    check(api->GetTensorMutableData(out, (void **)&odata), "GetTensorMutableData"))
		return 1;
	if (memcmp(odata, edata, elen)) {
		printf("FAIL: C API: %s through the e1 EP differs from the CPU EP's bytes\n", argv[2]);
		return 1;
	}
	printf("PASS: C API: RegisterExecutionProviderLibrary, the e1npu OrtEpDevice, "
	       "SessionOptionsAppendExecutionProvider_V2, Run: %zu bytes equal to the CPU EP's\n", elen);
	api->ReleaseValue(out);
	api->ReleaseValue(in);
	api->ReleaseMemoryInfo(mi);
	api->ReleaseSession(sess);
	api->ReleaseSessionOptions(so);
	if (check(api->UnregisterExecutionProviderLibrary(env, "e1"), "UnregisterExecutionProviderLibrary"))
		return 1;
	api->ReleaseEnv(env);
	free(idata);
	free(edata);
	return 0;
}
