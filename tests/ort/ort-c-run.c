// SPDX-License-Identifier: MIT
/*
 * ort-c-run: the e1 EP through ONNX Runtime's C API, as
 * Documentation/onnxruntime.md shows it: register the library, find the
 * e1npu OrtEpDevice, append it with options, run a model's first input
 * to its first output.
 *
 *   ort-c-run [-e EXPECTED.bin] [-o OUT.bin] [-d DEVICE] EP.so MODEL INPUT.bin...
 *
 * The input's element type and shape are the model's (dimensions without a
 * value are 1); each INPUT.bin must hold exactly that many bytes. The
 * output of every input is compared with EXPECTED.bin (-e: the CPU EP's
 * bytes, the inputs' outputs one after the other) and/or written there
 * (-o). -d: the EP option "device" (default: the EP's, auto).
 * ONNX Runtime is loaded by its soname (dlopen, as its language bindings
 * do): one binary builds without ONNX Runtime's library, so the board's is
 * cross-built (tests/vm/debian-board.sh).
 * Prints "PASS: ..." or "FAIL: ..."; exit status 0, 1 (failed) or 2 (usage).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <onnxruntime_c_api.h>

#define ORT_SONAME "libonnxruntime.so.1.23"

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
	unsigned char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*len = (size_t)n;
out:
	fclose(f);
	return buf;
}

static size_t elem_size(ONNXTensorElementDataType t)
{
	switch (t) {
	case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8:
	case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8:
		return 1;
	case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT:
	case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32:
		return 4;
	default:
		return 0;
	}
}

struct io {
	char *in_name, *out_name;
	ONNXTensorElementDataType type;
	int64_t dims[8];
	size_t rank, bytes;
};

/* the first input's name, type and shape; the first output's name */
static int model_io(OrtSession *sess, OrtAllocator *al, struct io *io)
{
	OrtTypeInfo *ti = NULL;
	const OrtTensorTypeAndShapeInfo *tsi;
	size_t count = 1;

	if (check(api->SessionGetInputName(sess, 0, al, &io->in_name), "SessionGetInputName") ||
	    check(api->SessionGetOutputName(sess, 0, al, &io->out_name), "SessionGetOutputName") ||
	    check(api->SessionGetInputTypeInfo(sess, 0, &ti), "SessionGetInputTypeInfo") ||
	    check(api->CastTypeInfoToTensorInfo(ti, &tsi), "CastTypeInfoToTensorInfo") ||
	    check(api->GetTensorElementType(tsi, &io->type), "GetTensorElementType") ||
	    check(api->GetDimensionsCount(tsi, &io->rank), "GetDimensionsCount"))
		goto fail;
	if (io->rank > 8 || !elem_size(io->type)) {
		printf("FAIL: C API: input %s: rank %zu or element type %d not handled here\n",
		       io->in_name, io->rank, (int)io->type);
		goto fail;
	}
	if (check(api->GetDimensions(tsi, io->dims, io->rank), "GetDimensions"))
		goto fail;
	for (size_t i = 0; i < io->rank; i++) {
		if (io->dims[i] <= 0)
			io->dims[i] = 1;
		count *= (size_t)io->dims[i];
	}
	io->bytes = count * elem_size(io->type);
	api->ReleaseTypeInfo(ti);
	return 0;
fail:
	if (ti)
		api->ReleaseTypeInfo(ti);
	return 1;
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-e EXPECTED.bin] [-o OUT.bin] [-d DEVICE] EP.so MODEL INPUT.bin...\n",
		argv0);
}

int main(int argc, char **argv)
{
	const char *expected = NULL, *outpath = NULL, *device = NULL;
	OrtEnv *env = NULL;
	OrtSessionOptions *so = NULL;
	OrtSession *sess = NULL;
	OrtMemoryInfo *mi = NULL;
	OrtAllocator *al = NULL;
	const OrtEpDevice *const *devs = NULL;
	const OrtEpDevice *e1 = NULL;
	const OrtApiBase *(*get_base)(void);
	size_t ndev = 0, elen = 0, obytes = 0, done = 0;
	unsigned char *edata = NULL;
	const char *keys[2] = { "log_level" }, *vals[2] = { "summary" };
	size_t nopt = 1;
	struct io io = { 0 };
	FILE *of = NULL;
	void *ortlib;
	int opt, rc = 1;

	while ((opt = getopt(argc, argv, "e:o:d:")) != -1) {
		switch (opt) {
		case 'e': expected = optarg; break;
		case 'o': outpath = optarg; break;
		case 'd': device = optarg; break;
		default: usage(argv[0]); return 2;
		}
	}
	if (argc - optind < 3) {
		usage(argv[0]);
		return 2;
	}
	ortlib = dlopen(ORT_SONAME, RTLD_NOW | RTLD_LOCAL);
	get_base = ortlib ? (const OrtApiBase *(*)(void))dlsym(ortlib, "OrtGetApiBase") : NULL;
	if (!get_base) {
		printf("FAIL: C API: cannot load ONNX Runtime (%s): %s\n", ORT_SONAME, dlerror());
		return 1;
	}
	api = get_base()->GetApi(ORT_API_VERSION);
	if (!api) {
		printf("FAIL: C API: %s has no API version %d\n", ORT_SONAME, ORT_API_VERSION);
		return 1;
	}
	if (expected && !(edata = slurp(expected, &elen))) {
		printf("FAIL: C API: cannot read %s\n", expected);
		return 1;
	}
	if (device) {
		keys[nopt] = "device";
		vals[nopt++] = device;
	}
	if (check(api->CreateEnv(ORT_LOGGING_LEVEL_ERROR, "e1", &env), "CreateEnv") ||
	    check(api->RegisterExecutionProviderLibrary(env, "e1", argv[optind]),
		  "RegisterExecutionProviderLibrary") ||
	    check(api->GetEpDevices(env, &devs, &ndev), "GetEpDevices"))
		goto out;
	for (size_t i = 0; i < ndev; i++)
		if (!strcmp(api->EpDevice_EpName(devs[i]), "e1npu"))
			e1 = devs[i];
	if (!e1) {
		printf("FAIL: C API: no e1npu OrtEpDevice among %zu\n", ndev);
		goto out;
	}
	if (check(api->CreateSessionOptions(&so), "CreateSessionOptions") ||
	    check(api->SessionOptionsAppendExecutionProvider_V2(so, env, &e1, 1, keys, vals, nopt),
		  "SessionOptionsAppendExecutionProvider_V2") ||
	    check(api->CreateSession(env, argv[optind + 1], so, &sess), "CreateSession") ||
	    check(api->GetAllocatorWithDefaultOptions(&al), "GetAllocatorWithDefaultOptions") ||
	    check(api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &mi), "CreateCpuMemoryInfo") ||
	    model_io(sess, al, &io))
		goto out;
	if (outpath && !(of = fopen(outpath, "wb"))) {
		printf("FAIL: C API: cannot write %s\n", outpath);
		goto out;
	}
	for (int a = optind + 2; a < argc; a++) {
		OrtValue *in = NULL, *out = NULL;
		OrtTensorTypeAndShapeInfo *oti = NULL;
		const char *in_names[] = { io.in_name }, *out_names[] = { io.out_name };
		unsigned char *idata, *odata = NULL;
		size_t ilen, ocount = 0;
		ONNXTensorElementDataType otype;
		int bad;

		idata = slurp(argv[a], &ilen);
		if (!idata || ilen != io.bytes) {
			printf("FAIL: C API: %s: %zu bytes, the model's input %s takes %zu\n",
			       argv[a], ilen, io.in_name, io.bytes);
			free(idata);
			goto out;
		}
		bad = check(api->CreateTensorWithDataAsOrtValue(mi, idata, ilen, io.dims, io.rank, io.type, &in),
			    "CreateTensorWithDataAsOrtValue") ||
		      check(api->Run(sess, NULL, in_names, (const OrtValue *const *)&in, 1, out_names, 1, &out),
			    "Run") ||
		      check(api->GetTensorMutableData(out, (void **)&odata), "GetTensorMutableData") ||
		      check(api->GetTensorTypeAndShape(out, &oti), "GetTensorTypeAndShape") ||
		      check(api->GetTensorElementType(oti, &otype), "GetTensorElementType") ||
		      check(api->GetTensorShapeElementCount(oti, &ocount), "GetTensorShapeElementCount");
		if (!bad && !elem_size(otype)) {
			printf("FAIL: C API: output %s: element type %d not handled here\n", io.out_name, (int)otype);
			bad = 1;
		}
		if (!bad) {
			size_t ob = ocount * elem_size(otype);

			if (edata && (obytes + ob > elen || memcmp(odata, edata + obytes, ob))) {
				printf("FAIL: C API: %s, input %s: the e1 EP's output differs from %s\n",
				       argv[optind + 1], argv[a], expected);
				bad = 1;
			}
			if (of && fwrite(odata, 1, ob, of) != ob) {
				printf("FAIL: C API: writing %s\n", outpath);
				bad = 1;
			}
			obytes += ob;
		}
		if (oti)
			api->ReleaseTensorTypeAndShapeInfo(oti);
		if (out)
			api->ReleaseValue(out);
		if (in)
			api->ReleaseValue(in);
		free(idata);
		if (bad)
			goto out;
		done++;
	}
	if (edata && obytes != elen) {
		printf("FAIL: C API: %zu output bytes, %s holds %zu\n", obytes, expected, elen);
		goto out;
	}
	printf("PASS: C API: RegisterExecutionProviderLibrary, the e1npu OrtEpDevice, "
	       "SessionOptionsAppendExecutionProvider_V2, Run: %zu inputs, %zu output bytes%s\n",
	       done, obytes, edata ? " equal to the expected ones" : "");
	rc = 0;
out:
	if (of && fclose(of) && !rc) {
		printf("FAIL: C API: writing %s\n", outpath);
		rc = 1;
	}
	if (al) {
		if (io.in_name)
			al->Free(al, io.in_name);
		if (io.out_name)
			al->Free(al, io.out_name);
	}
	if (mi)
		api->ReleaseMemoryInfo(mi);
	if (sess)
		api->ReleaseSession(sess);
	if (so)
		api->ReleaseSessionOptions(so);
	if (env) {
		if (!rc && check(api->UnregisterExecutionProviderLibrary(env, "e1"),
				 "UnregisterExecutionProviderLibrary"))
			rc = 1;
		api->ReleaseEnv(env);
	}
	free(edata);
	return rc;
}
